package org.fabprobe.api;

import static org.junit.jupiter.api.Assertions.*;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's embedding example, exactly as printed there: it compiles against fabprobe and measures. */
class EmbeddingExampleTest {
    @TempDir
    Path dir;

    @Test
    void theReadmeExampleCompilesAndMeasures() throws Exception {
        String readme = Files.readString(Path.of("../README.md"));
        Matcher block = Pattern.compile("```java\n(.*?)```", Pattern.DOTALL).matcher(readme);
        assertTrue(block.find(), "README has no java example");
        String source = block.group(1);
        Matcher name = Pattern.compile("public class (\\w+)").matcher(source);
        assertTrue(name.find(), source);
        Path file = dir.resolve(name.group(1) + ".java");
        Files.writeString(file, source);
        int rc = ToolProvider.getSystemJavaCompiler().run(null, null, null,
                "-cp", System.getProperty("java.class.path"), "-d", dir.toString(), file.toString());
        assertEquals(0, rc, "the README's example does not compile");

        PrintStream stdout = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (URLClassLoader loader = new URLClassLoader(new java.net.URL[] {dir.toUri().toURL()}, getClass().getClassLoader())) {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            loader.loadClass(name.group(1)).getMethod("main", String[].class).invoke(null, (Object) new String[0]);
        } finally {
            System.setOut(stdout);
        }
        List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(3, lines.size(), String.join("\n", lines));
        assertTrue(lines.get(0).matches("8 B: \\d+\\.\\d{3} us median half round trip"), lines.get(0));
        assertTrue(lines.get(1).matches("4096 B: \\d+\\.\\d{3} us median half round trip"), lines.get(1));
        assertTrue(lines.get(2).startsWith("flags: ["), lines.get(2));
    }
}

// Run by scripts/make-dist (JDK 24+, as a source file): java RaiseClassVersions.java JAR
//
// Rewrites the class files in JAR that predate Java 6 (picocli's jar is Java 5 byte code) as
// Java 8 class files with stack maps, the same instructions otherwise. The JDK's AOT cache
// skips such old classes ("Old class has been linked"), so without this every fabprobe JVM
// loads and verifies picocli from the jar with the old verifier at start-up. A class that
// cannot be rewritten is kept as it is; JAR is replaced only when the rewrite is complete.
import java.io.IOException;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassHierarchyResolver;
import java.lang.classfile.ClassModel;
import java.lang.classfile.ClassTransform;
import java.lang.classfile.CodeTransform;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

public class RaiseClassVersions {
    private static final int FIRST_WITH_STACK_MAPS = 50, TARGET = 52;

    public static void main(String[] args) throws IOException {
        Path jar = Path.of(args[0]);
        Path rewritten = jar.resolveSibling(jar.getFileName() + ".new");
        int raised = 0, kept = 0;
        // the hierarchy that stack maps need: the JDK's classes, then the jar's own
        try (URLClassLoader classes = new URLClassLoader(new URL[] {jar.toUri().toURL()}, null);
             ZipFile in = new ZipFile(jar.toFile()); // refuses a file that is no zip
             ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(rewritten))) {
            ClassFile files = ClassFile.of(ClassFile.StackMapsOption.GENERATE_STACK_MAPS,
                    ClassFile.ClassHierarchyResolverOption.of(ClassHierarchyResolver.defaultResolver()
                            .orElse(ClassHierarchyResolver.ofClassLoading(classes))));
            // every method body rebuilt (stack maps come with it), then the version
            ClassTransform raise = ClassTransform.transformingMethodBodies(CodeTransform.ACCEPT_ALL)
                    .andThen(ClassTransform.endHandler(c -> c.withVersion(TARGET, 0)));
            for (ZipEntry entry : java.util.Collections.list(in.entries())) {
                byte[] bytes;
                try (var stream = in.getInputStream(entry)) {
                    bytes = stream.readAllBytes();
                }
                if (entry.getName().endsWith(".class")) {
                    ClassModel model = files.parse(bytes);
                    if (model.majorVersion() < FIRST_WITH_STACK_MAPS) {
                        try {
                            bytes = files.transformClass(model, raise);
                            raised++;
                        } catch (RuntimeException e) {
                            kept++;
                            System.err.println("RaiseClassVersions: " + entry.getName() + " kept: " + e.getMessage());
                        }
                    }
                }
                ZipEntry copy = new ZipEntry(entry.getName());
                copy.setTime(entry.getTime());
                out.putNextEntry(copy);
                out.write(bytes);
                out.closeEntry();
            }
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(rewritten); // no half-written jar left in the distribution
            throw e;
        }
        Files.move(rewritten, jar, StandardCopyOption.REPLACE_EXISTING);
        System.err.println("RaiseClassVersions: " + raised + " class files raised to version " + TARGET
                + (kept > 0 ? ", " + kept + " kept as they were" : ""));
    }
}

package org.fabprobe.result;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The published schemas are valid 2020-12 schemas, and the JSON reference (docs/json.md) says what they say. */
class SchemasTest {
    private static final Path SCHEMAS = Path.of("src/main/resources/schemas");
    private static final Path JSON_REFERENCE = Path.of("../docs/json.md");

    static List<Path> schemaFiles() throws IOException {
        try (Stream<Path> files = Files.list(SCHEMAS)) {
            return files.filter(p -> p.toString().endsWith(".schema.json")).sorted().toList();
        }
    }

    @Test
    void everySchemaIsAValid2020_12Schema() throws IOException {
        for (Path file : schemaFiles()) {
            String text = Files.readString(file);
            JsonNode schema = ResultJson.tree(text);
            assertEquals("https://json-schema.org/draft/2020-12/schema", schema.path("$schema").asText(), file.toString());
            assertEquals(Schemas.BASE + file.getFileName(), schema.path("$id").asText(), file.toString());
            var errors = com.networknt.schema.JsonSchemaFactory.getInstance(com.networknt.schema.SpecVersion.VersionFlag.V202012)
                    .getSchema(com.networknt.schema.SchemaLocation.of("https://json-schema.org/draft/2020-12/schema"))
                    .validate(text, com.networknt.schema.InputFormat.JSON);
            assertEquals(Set.of(), errors, file.toString());
        }
    }

    /** The pingpong block of docs/json.md lists exactly the pingpong schema's field names. */
    @Test
    void jsonReferencePingPongBlockIsTheSchema() throws IOException {
        String reference = Files.readString(JSON_REFERENCE);
        Matcher block = Pattern.compile("(?s)```\\s*\\n(\\{ \"schema\": \"fabprobe\\.pingpong/4\".*?)```").matcher(reference);
        assertTrue(block.find(), "docs/json.md has no fabprobe.pingpong/4 block");
        Set<String> inReference = new TreeSet<>();
        Matcher key = Pattern.compile("\"([a-zA-Z_0-9]+)\"").matcher(block.group(1));
        while (key.find()) inReference.add(key.group(1));
        inReference.remove("fabprobe"); // not a key
        Set<String> inSchema = propertyNames("pingpong.schema.json", "clock.schema.json");
        JsonNode common = ResultJson.tree(Files.readString(SCHEMAS.resolve("common.schema.json"))).path("$defs");
        for (String def : List.of("run", "stats", "hockney", "host")) collect(common.path(def), inSchema);
        Set<String> missing = new TreeSet<>(inSchema);
        missing.removeAll(inReference);
        Set<String> extra = new TreeSet<>(inReference);
        extra.removeAll(inSchema);
        // transport_facts' names are per library, listed in docs/json.md but not fixed by the schema
        extra.removeAll(Set.of("library", "provider", "fabric", "domain", "endpoint_type", "mr_mode", "inject_size",
                "max_msg_size", "tls", "devices", "err_mode", "tcp_congestion_control", "emulated", "pid", "boot_id")); // and mirror_host's extras
        assertEquals(Set.of(), missing, "in pingpong.schema.json but not in docs/json.md's block");
        assertEquals(Set.of(), extra, "in docs/json.md's block but not in pingpong.schema.json");
    }

    /** Every field name of every published schema appears in docs/json.md (as "name" or `name`). */
    @Test
    void jsonReferenceNamesEveryField() throws IOException {
        String reference = Files.readString(JSON_REFERENCE);
        List<String> missing = new ArrayList<>();
        for (Path file : schemaFiles()) {
            for (String name : propertyNames(file.getFileName().toString())) {
                if (!reference.contains("\"" + name + "\"") && !reference.contains("`" + name + "`")) {
                    missing.add(file.getFileName() + ": " + name);
                }
            }
            String schemaName = ResultJson.tree(Files.readString(file)).path("properties").path("schema").path("const").asText();
            if (!schemaName.isEmpty() && !reference.contains(schemaName)) missing.add(file.getFileName() + ": the name " + schemaName);
        }
        assertEquals(List.of(), missing, "fields docs/json.md does not mention");
    }

    private static Set<String> propertyNames(String... files) throws IOException {
        Set<String> names = new TreeSet<>();
        for (String f : files) collect(ResultJson.tree(Files.readString(SCHEMAS.resolve(f))), names);
        return names;
    }

    private static void collect(JsonNode node, Set<String> names) {
        if (node.isObject()) {
            JsonNode properties = node.get("properties");
            if (properties != null && properties.isObject()) properties.fieldNames().forEachRemaining(names::add);
            node.forEach(child -> collect(child, names));
        } else if (node.isArray()) {
            node.forEach(child -> collect(child, names));
        }
    }
}

package org.fabprobe.result;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.InputFormat;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The published JSON Schemas (src/main/resources/schemas, 2020-12) applied to what the commands
 * write: every test that reads a command's JSON reads it through here, so a field that drifts from
 * its schema fails the test. Schemas refer to each other by their $id, mapped to the class path.
 */
public final class Schemas {
    public static final String BASE = "https://fabprobe.example/schemas/";
    private static final JsonSchemaFactory FACTORY = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012,
            builder -> builder.schemaMappers(m -> m.mapPrefix(BASE, "classpath:schemas/")));
    private static final Map<String, JsonSchema> CACHE = new ConcurrentHashMap<>();

    private Schemas() {}

    /** The schema file of a document's "schema" name: fabprobe.pingpong/2 -> pingpong.schema.json. */
    public static String fileOf(String schemaName) {
        if (!schemaName.matches("fabprobe\\.[a-z]+/\\d+")) throw new IllegalArgumentException("not a fabprobe schema: " + schemaName);
        return schemaName.substring("fabprobe.".length(), schemaName.indexOf('/')) + ".schema.json";
    }

    /** The validation errors of {@code json} against schema file {@code file} (empty: valid). */
    public static Set<ValidationMessage> errors(String json, String file) {
        JsonSchema schema = CACHE.computeIfAbsent(file, f -> FACTORY.getSchema(
                com.networknt.schema.SchemaLocation.of(BASE + f),
                SchemaValidatorsConfig.builder().formatAssertionsEnabled(true).build()));
        return schema.validate(json, InputFormat.JSON);
    }

    /** Asserts {@code json} is valid against {@code file}; returns it as Jackson's tree. */
    public static JsonNode validTree(String json, String file) {
        Set<ValidationMessage> errors = errors(json, file);
        assertTrue(errors.isEmpty(), () -> file + ": " + errors + "\n" + json);
        return ResultJson.tree(json);
    }

    /**
     * A command's document, validated against the schema its "schema" field names, read back as
     * its typed record (so writing and reading agree), and returned as plain maps and lists with
     * every number a Double, for tests that walk it by name.
     */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> validated(String json) {
        String name = ResultJson.tree(json).path("schema").asText();
        validTree(json, fileOf(name));
        Class<?> type = switch (name) {
            case PingPongDocument.SCHEMA -> PingPongDocument.class;
            case BandwidthDocument.SCHEMA -> BandwidthDocument.class;
            case PLogPDocument.SCHEMA -> PLogPDocument.class;
            case LogGPDocument.SCHEMA -> LogGPDocument.class;
            case SignatureDocument.SCHEMA -> SignatureDocument.class;
            case CollectivesDocument.SCHEMA -> CollectivesDocument.class;
            case CompareDocument.SCHEMA -> CompareDocument.class;
            case MultiPairDocument.SCHEMA -> MultiPairDocument.class;
            case ProvidersDocument.SCHEMA -> ProvidersDocument.class;
            case MatrixDocument.SCHEMA -> MatrixDocument.class;
            case AcceptDocument.SCHEMA -> AcceptDocument.class;
            case RegisterDocument.SCHEMA -> RegisterDocument.class;
            default -> throw new AssertionError("no record for " + name);
        };
        assertNotNull(ResultJson.read(json, type));
        return (Map<String, Object>) plain(ResultJson.tree(json));
    }

    /** A command's document, validated against the schema its "schema" field names, read as its typed record. */
    public static <T> T validated(String json, Class<T> type) {
        validTree(json, fileOf(ResultJson.tree(json).path("schema").asText()));
        T doc = ResultJson.read(json, type);
        assertNotNull(doc, json);
        return doc;
    }

    /** {@link #validated(String, Class)} of a file a command wrote. */
    public static <T> T validated(java.nio.file.Path file, Class<T> type) {
        try {
            return validated(java.nio.file.Files.readString(file), type);
        } catch (java.io.IOException e) {
            throw new AssertionError("cannot read " + file, e);
        }
    }

    /** Any JSON as plain maps and lists, every number a Double (no validation). */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> plain(String json) {
        return (Map<String, Object>) plain(ResultJson.tree(json));
    }

    private static Object plain(JsonNode n) {
        if (n.isObject()) {
            Map<String, Object> m = new LinkedHashMap<>();
            n.properties().forEach(e -> m.put(e.getKey(), plain(e.getValue())));
            return m;
        }
        if (n.isArray()) {
            List<Object> l = new ArrayList<>();
            n.forEach(x -> l.add(plain(x)));
            return l;
        }
        if (n.isNumber()) return n.doubleValue();
        if (n.isBoolean()) return n.booleanValue();
        if (n.isNull()) return null;
        return n.asText();
    }
}

package org.fabprobe.result;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import java.io.IOException;

/**
 * Result records to and from JSON: snake_case names (components whose name does not follow,
 * such as L_ns, carry @JsonProperty), two-space indentation, and numbers that do not exist
 * (NaN, an infinite r_inf) written as null and read back as NaN. Unknown fields are refused
 * when reading: a document is read only by the fabprobe that wrote it (compare, collectives).
 */
public final class ResultJson {
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(SerializationFeature.INDENT_OUTPUT)
            .defaultPrettyPrinter(new DefaultPrettyPrinter(Separators.createDefaultInstance()
                    .withObjectFieldValueSpacing(Separators.Spacing.AFTER))) // "key": value
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .addModule(new SimpleModule("non-finite numbers as null")
                    .addSerializer(Double.class, new FiniteOrNull())
                    .addSerializer(Double.TYPE, new FiniteOrNull())
                    .addDeserializer(Double.class, new NullAsNaN(null))
                    .addDeserializer(Double.TYPE, new NullAsNaN(Double.NaN)))
            .build();

    private ResultJson() {}

    /** The document as pretty-printed JSON, with a final newline. */
    public static String write(Object document) {
        try {
            return MAPPER.writeValueAsString(document) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + document.getClass().getSimpleName() + " as JSON", e);
        }
    }

    /** Reads a document written by {@link #write}; malformed or foreign text throws IllegalArgumentException. */
    public static <T> T read(String text, Class<T> type) {
        try {
            T value = MAPPER.readValue(text, type);
            // an unwrapped component (the run header) takes every name it does not know, so Jackson cannot refuse them itself
            String unknown = unknownField(MAPPER.readTree(text), MAPPER.valueToTree(value), "");
            if (unknown != null) throw new IllegalArgumentException("Unrecognized field \"" + unknown + "\" in " + type.getSimpleName());
            return value;
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e.getOriginalMessage(), e);
        }
    }

    /** The path of the first field of {@code read} that {@code written} (the record read, written again) lacks, or null. */
    private static String unknownField(JsonNode read, JsonNode written, String path) {
        if (read.isObject()) {
            for (var field : read.properties()) {
                JsonNode mine = written.get(field.getKey());
                String at = path.isEmpty() ? field.getKey() : path + "." + field.getKey();
                if (mine == null) return at;
                String deeper = unknownField(field.getValue(), mine, at);
                if (deeper != null) return deeper;
            }
        } else if (read.isArray() && written.isArray() && read.size() == written.size()) {
            for (int i = 0; i < read.size(); i++) {
                String deeper = unknownField(read.get(i), written.get(i), path + "[" + i + "]");
                if (deeper != null) return deeper;
            }
        }
        return null;
    }

    /** A document as Jackson's tree, as {@link #write} would write it (accept keeps its measurements' documents so). */
    public static JsonNode toTree(Object document) {
        return MAPPER.valueToTree(document);
    }

    /** Any JSON as Jackson's tree (tests, schema validation). */
    public static JsonNode tree(String text) {
        try {
            return MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e.getOriginalMessage(), e);
        }
    }

    /** NaN and ±Infinity have no JSON form: null. */
    private static final class FiniteOrNull extends JsonSerializer<Double> {
        @Override
        public void serialize(Double value, JsonGenerator out, SerializerProvider provider) throws IOException {
            if (value == null || !Double.isFinite(value)) out.writeNull();
            else out.writeNumber(value);
        }
    }

    /** null reads as NaN; an absent optional (boxed) number stays absent (null), so it is not written back. */
    private static final class NullAsNaN extends JsonDeserializer<Double> {
        private final Double absent;

        NullAsNaN(Double absent) {
            this.absent = absent;
        }

        @Override
        public Double deserialize(JsonParser in, DeserializationContext context) throws IOException {
            if (in.currentToken() == JsonToken.VALUE_NULL) return Double.NaN;
            if (!in.currentToken().isNumeric()) return (Double) context.handleUnexpectedToken(Double.class, in);
            return in.getDoubleValue();
        }

        @Override
        public Double getNullValue(DeserializationContext context) {
            return Double.NaN;
        }

        @Override
        public Object getAbsentValue(DeserializationContext context) {
            return absent;
        }
    }
}

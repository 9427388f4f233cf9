package org.fabprobe.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict JSON parser (RFC 8259): compare reads the runs it made, tests read back what was written;
 * objects become LinkedHashMap, arrays ArrayList, numbers Double. Anything malformed throws.
 */
public final class JsonReader {
    private final String text;
    private int pos;

    private JsonReader(String text) {
        this.text = text;
    }

    public static Object parse(String text) {
        JsonReader reader = new JsonReader(text);
        Object value = reader.value();
        reader.skipWhitespace();
        if (reader.pos != text.length()) throw reader.error("trailing text");
        return value;
    }

    private Object value() {
        skipWhitespace();
        if (pos >= text.length()) throw error("unexpected end");
        char c = text.charAt(pos);
        return switch (c) {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            case 't' -> literal("true", Boolean.TRUE);
            case 'f' -> literal("false", Boolean.FALSE);
            case 'n' -> literal("null", null);
            default -> number();
        };
    }

    private Map<String, Object> object() {
        Map<String, Object> map = new LinkedHashMap<>();
        pos++;
        skipWhitespace();
        if (consume('}')) return map;
        do {
            skipWhitespace();
            if (!next('"')) throw error("expected a key");
            String key = string();
            skipWhitespace();
            expect(':');
            if (map.containsKey(key)) throw error("duplicate key " + key);
            map.put(key, value());
            skipWhitespace();
        } while (consume(','));
        expect('}');
        return map;
    }

    private List<Object> array() {
        List<Object> list = new ArrayList<>();
        pos++;
        skipWhitespace();
        if (consume(']')) return list;
        do {
            list.add(value());
            skipWhitespace();
        } while (consume(','));
        expect(']');
        return list;
    }

    private String string() {
        StringBuilder b = new StringBuilder();
        pos++;
        while (true) {
            if (pos >= text.length()) throw error("unterminated string");
            char c = text.charAt(pos++);
            if (c == '"') return b.toString();
            if (c < 0x20) throw error("raw control character in string");
            if (c != '\\') {
                b.append(c);
                continue;
            }
            char e = text.charAt(pos++);
            switch (e) {
                case '"', '\\', '/' -> b.append(e);
                case 'b' -> b.append('\b');
                case 'f' -> b.append('\f');
                case 'n' -> b.append('\n');
                case 'r' -> b.append('\r');
                case 't' -> b.append('\t');
                case 'u' -> {
                    b.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
                    pos += 4;
                }
                default -> throw error("bad escape \\" + e);
            }
        }
    }

    private Double number() {
        int start = pos;
        while (pos < text.length() && "+-0123456789.eE".indexOf(text.charAt(pos)) >= 0) pos++;
        String n = text.substring(start, pos);
        if (!n.matches("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?")) throw error("bad number '" + n + "'");
        return Double.valueOf(n);
    }

    private Object literal(String word, Object value) {
        if (!text.startsWith(word, pos)) throw error("expected " + word);
        pos += word.length();
        return value;
    }

    private void skipWhitespace() {
        while (pos < text.length() && " \t\n\r".indexOf(text.charAt(pos)) >= 0) pos++;
    }

    private boolean next(char c) {
        return pos < text.length() && text.charAt(pos) == c;
    }

    /** Consumes {@code c} if it is next. */
    private boolean consume(char c) {
        if (!next(c)) return false;
        pos++;
        return true;
    }

    private void expect(char c) {
        if (!consume(c)) throw error("expected '" + c + "'");
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException(what + " at offset " + pos);
    }
}

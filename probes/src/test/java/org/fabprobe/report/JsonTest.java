package org.fabprobe.report;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import org.junit.jupiter.api.Test;

class JsonTest {
    @Test
    void escapesStringsAndWritesNonFiniteAsNull() {
        String s = Json.write(Json.object("text", "a\"b\\c\nd\u0001", "nan", Double.NaN, "inf",
                Double.POSITIVE_INFINITY, "whole", 3.0, "half", 0.5, "list", List.of(1, 2), "none", null, "yes", true));
        assertTrue(s.contains("\"text\": \"a\\\"b\\\\c\\nd\\u0001\""), s);
        assertTrue(s.contains("\"nan\": null") && s.contains("\"inf\": null"), s);
        assertTrue(s.contains("\"whole\": 3,") && s.contains("\"half\": 0.5"), s);
        assertTrue(s.contains("\"list\": [1, 2]") && s.contains("\"none\": null") && s.contains("\"yes\": true"), s);
    }

    @Test
    void nestsObjectsInArrays() {
        String s = Json.write(List.of(Json.object("a", 1), Json.object()));
        assertEquals("[\n  {\n    \"a\": 1\n  },\n  {}\n]\n", s);
    }
}

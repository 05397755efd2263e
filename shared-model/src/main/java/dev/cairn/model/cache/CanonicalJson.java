package dev.cairn.model.cache;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * RFC 8785 JSON Canonicalization Scheme (JCS) over plain Java values as a JSON parser produces them ({@link Map}
 * with string keys, {@link List}, {@link String}, {@link Number}, {@link Boolean}, {@code null}): object members
 * sorted by the UTF-16 code units of their names, no white space, strings with the minimal escaping of ECMAScript's
 * JSON.stringify, numbers as IEEE-754 doubles printed the way ECMAScript's Number.prototype.toString prints them.
 * Two spellings of the same JSON value ({@code {"b":1,"a":1.0}} and {@code {"a":1,"b":1e0}}) therefore give the
 * same text, which is what the tool-cache key hashes.
 *
 * <p>Written here rather than taken from a library because no JCS implementation is among the artifacts this
 * project may use, and shared-model carries no JSON library; the number printing is checked against RFC 8785's
 * published examples.
 */
public final class CanonicalJson {

    private CanonicalJson() {
    }

    /** Thrown for values JSON cannot hold (NaN, infinities, lone surrogates, non-string keys, other types). */
    public static final class NotJson extends IllegalArgumentException {
        public NotJson(String message) {
            super(message);
        }
    }

    public static String canonicalize(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out, 0);
        return out.toString();
    }

    private static void write(Object v, StringBuilder out, int depth) {
        if (depth > 64) {
            throw new NotJson("nested deeper than 64 levels");
        }
        if (v == null) {
            out.append("null");
        } else if (v instanceof Boolean b) {
            out.append(b ? "true" : "false");
        } else if (v instanceof String s) {
            string(s, out);
        } else if (v instanceof Number n) {
            out.append(number(n.doubleValue()));
        } else if (v instanceof Map<?, ?> m) {
            List<String> keys = new ArrayList<>(m.size());
            for (Object k : m.keySet()) {
                if (!(k instanceof String key)) {
                    throw new NotJson("object member names must be strings");
                }
                keys.add(key);
            }
            keys.sort(null); // String.compareTo orders by UTF-16 code units, as RFC 8785 § 3.2.3 asks
            out.append('{');
            for (int i = 0; i < keys.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                string(keys.get(i), out);
                out.append(':');
                write(m.get(keys.get(i)), out, depth + 1);
            }
            out.append('}');
        } else if (v instanceof List<?> l) {
            out.append('[');
            for (int i = 0; i < l.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                write(l.get(i), out, depth + 1);
            }
            out.append(']');
        } else {
            throw new NotJson("not a JSON value: " + v.getClass().getSimpleName());
        }
    }

    private static void string(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1))) {
                    throw new NotJson("a string holds a lone surrogate");
                }
                out.append(c).append(s.charAt(++i));
                continue;
            }
            if (Character.isLowSurrogate(c)) {
                throw new NotJson("a string holds a lone surrogate");
            }
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    /** ECMAScript Number.prototype.toString of a double (ECMA-262 § 6.1.6.1.20), as RFC 8785 § 3.2.2.3 requires. */
    static String number(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            throw new NotJson("NaN and infinities are not JSON numbers");
        }
        if (d == 0) {
            return "0"; // -0 too
        }
        String sign = d < 0 ? "-" : "";
        BigDecimal shortest = shortest(Math.abs(d));
        String digits = shortest.unscaledValue().toString();
        int k = digits.length();
        int n = k - shortest.scale(); // value = digits × 10^(n − k)
        String body;
        if (k <= n && n <= 21) {
            body = digits + "0".repeat(n - k);
        } else if (0 < n && n <= 21) {
            body = digits.substring(0, n) + "." + digits.substring(n);
        } else if (-6 < n && n <= 0) {
            body = "0." + "0".repeat(-n) + digits;
        } else {
            int e = n - 1;
            String exp = "e" + (e >= 0 ? "+" : "-") + Math.abs(e);
            body = k == 1 ? digits + exp : digits.charAt(0) + "." + digits.substring(1) + exp;
        }
        return sign + body;
    }

    /**
     * The decimal with the fewest significant digits that reads back as {@code d} (Java 17's Double.toString is not
     * always the shortest), trailing zeros stripped.
     */
    private static BigDecimal shortest(double d) {
        BigDecimal exact = new BigDecimal(d);
        for (int p = 1; p <= 17; p++) {
            BigDecimal candidate = exact.round(new MathContext(p, RoundingMode.HALF_EVEN));
            if (candidate.doubleValue() == d) {
                return candidate.stripTrailingZeros();
            }
        }
        return new BigDecimal(Double.toString(d)).stripTrailingZeros();
    }
}

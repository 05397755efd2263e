package dev.cairn.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.io.IOContext;
import com.fasterxml.jackson.core.io.InputDecorator;
import java.io.ByteArrayInputStream;
import java.io.CharArrayReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Refuses a request body that is not strict UTF-8 or that spells a lone UTF-16 surrogate, before Jackson reads it.
 *
 * <p>Jackson decodes an overlong sequence ({@code C0 AF}) as the character it encodes ({@code /}) and turns an escaped
 * lone surrogate ({@code "\ud800"}) into a Java string that no store can keep (SQLite writes {@code ?}): text would be
 * stored as something other than what was sent. Neither is Unicode text, so both are the client's error.
 */
final class StrictText extends InputDecorator {

    /** A body that is not Unicode text; its message says where, never what (the bytes may be a secret's). */
    static final class NotText extends JsonProcessingException {
        NotText(String message) {
            super(message);
        }
    }

    @Override
    public InputStream decorate(IOContext ctxt, InputStream in) throws IOException {
        byte[] body = in.readAllBytes();
        check(body, 0, body.length);
        return new ByteArrayInputStream(body);
    }

    @Override
    public InputStream decorate(IOContext ctxt, byte[] src, int offset, int length) throws IOException {
        check(src, offset, length);
        return new ByteArrayInputStream(src, offset, length);
    }

    @Override
    public Reader decorate(IOContext ctxt, Reader r) throws IOException {
        StringBuilder b = new StringBuilder();
        char[] buf = new char[8192];
        for (int n; (n = r.read(buf)) > 0; ) {
            b.append(buf, 0, n);
        }
        char[] chars = b.toString().toCharArray();
        surrogates(CharBuffer.wrap(chars));
        return new CharArrayReader(chars);
    }

    static void check(byte[] src, int offset, int length) throws NotText {
        CharBuffer text;
        try {
            text = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(src, offset, length));
        } catch (CharacterCodingException e) {
            throw new NotText("the request body is not valid UTF-8 (an invalid, overlong or truncated byte sequence"
                    + " near byte " + firstBad(src, offset, length) + ")");
        }
        surrogates(text);
    }

    /** Lone surrogates, literal or as {@code \\uXXXX} escapes (a JSON backslash only ever starts an escape). */
    static void surrogates(CharBuffer text) throws NotText {
        int n = text.length();
        for (int i = 0; i < n; i++) {
            char c = text.get(i);
            if (c == '\\' && i + 1 < n) {
                if (text.get(i + 1) != 'u') {
                    i++; // \" \\ \n …: the escaped character is not the start of anything
                    continue;
                }
                int unit = hex(text, i + 2);
                if (unit < 0) {
                    continue; // not an escape at all: the JSON parser reports it
                }
                if (Character.isHighSurrogate((char) unit)) {
                    int next =
                            i + 6 + 1 < n && text.get(i + 6) == '\\' && text.get(i + 7) == 'u' ? hex(text, i + 8) : -1;
                    if (next < 0 || !Character.isLowSurrogate((char) next)) {
                        throw lone(unit);
                    }
                    i += 11;
                } else if (Character.isLowSurrogate((char) unit)) {
                    throw lone(unit);
                } else {
                    i += 5;
                }
            } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(text.get(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw lone(c);
            }
        }
    }

    private static int hex(CharBuffer text, int at) {
        if (at + 4 > text.length()) {
            return -1;
        }
        int v = 0;
        for (int k = 0; k < 4; k++) {
            int d = Character.digit(text.get(at + k), 16);
            if (d < 0) {
                return -1;
            }
            v = v * 16 + d;
        }
        return v;
    }

    private static NotText lone(int unit) {
        return new NotText(String.format(
                "the request body holds a lone UTF-16 surrogate (\\u%04x) that is not half of a pair; it is not a "
                        + "character and cannot be stored",
                unit));
    }

    private static int firstBad(byte[] src, int offset, int length) {
        var decoder = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(src, offset, length);
        CharBuffer out = CharBuffer.allocate(length + 1);
        decoder.decode(in, out, true);
        return in.position() - offset;
    }
}

package dev.cairn.mcp;

import io.quarkiverse.mcp.server.ToolManager;
import io.quarkus.arc.Arc;
import io.quarkus.arc.ArcContainer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * {@link McpEnvelope} in front of the stdio transport: the MCP library reads newline-delimited messages from
 * {@code System.in}, so the {@code mcp} command sets this stream there before the library starts. Each line the client
 * writes is checked; a line the library would fail on never reaches it and its answer goes straight to the client on
 * {@code out} (the same {@code PrintStream} the library answers on, whose {@code println} is synchronized, so the two
 * never interleave within a line); every other line is handed on, completed where the schema allows.
 */
public final class McpStdioGuard extends InputStream {

    private final BufferedReader in;
    private final PrintStream out;
    private final Supplier<Set<String>> tools;
    private byte[] line = new byte[0];
    private int next;
    private boolean ended;

    /** Tool names are not checked: the library answers an unknown one. */
    public McpStdioGuard(InputStream in, PrintStream out) {
        this(in, out, Set::of);
    }

    /**
     * {@code tools} gives the server's tool names when a line is read: the guard is set before the application starts,
     * and the library reads its first line once it has.
     */
    public McpStdioGuard(InputStream in, PrintStream out, Supplier<Set<String>> tools) {
        this.in = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        this.out = out;
        this.tools = tools;
    }

    /**
     * The guard of the {@code mcp} command: tool names from the running application's {@link ToolManager}, looked up at
     * the first line (the container is up by then: the library reads stdin once it has started) and kept.
     */
    public static McpStdioGuard ofApplication(InputStream in, PrintStream out) {
        AtomicReference<Set<String>> known = new AtomicReference<>();
        return new McpStdioGuard(in, out, () -> {
            Set<String> names = known.get();
            if (names == null) {
                ArcContainer container = Arc.container();
                if (container == null || !container.isRunning()) {
                    return Set.of(); // not up yet: the library answers this line itself
                }
                names = McpEnvelopeGuard.toolNames(
                        container.instance(ToolManager.class).get());
                known.set(names);
            }
            return names;
        });
    }

    @Override
    public int read() throws IOException {
        if (!fill()) {
            return -1;
        }
        return line[next++] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        if (!fill()) {
            return -1;
        }
        int n = Math.min(len, line.length - next);
        System.arraycopy(line, next, b, off, n);
        next += n;
        return n;
    }

    @Override
    public int available() {
        return line.length - next;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }

    /** Makes sure unread bytes of a checked line are at hand; false at the end of input. */
    private boolean fill() throws IOException {
        while (next >= line.length) {
            if (ended) {
                return false;
            }
            String received = in.readLine();
            if (received == null) {
                ended = true;
                return false;
            }
            String passed = screen(received, out, tools.get());
            if (passed != null) {
                line = (passed + "\n").getBytes(StandardCharsets.UTF_8);
                next = 0;
            }
        }
        return true;
    }

    /**
     * The line to hand on, or null when it goes no further: answered here on {@code out}, a notification no one
     * handles, or a blank line (which the library took for a parse error, after which it read no more).
     */
    static String screen(String received, PrintStream out, Set<String> tools) {
        if (received.isBlank()) {
            return null;
        }
        McpEnvelope.Verdict verdict = McpEnvelope.check(received, tools);
        if (verdict instanceof McpEnvelope.Refuse refuse) {
            out.println(refuse.answer());
            out.flush();
            return null;
        }
        return verdict instanceof McpEnvelope.Pass pass ? pass.body() : null;
    }
}

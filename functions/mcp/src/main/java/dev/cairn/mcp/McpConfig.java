package dev.cairn.mcp;

import io.smallrye.config.ConfigMapping;
import java.util.Optional;

/** {@code cairn.mcp.*}: set by the local server's {@code mcp} command, never by hand. */
@ConfigMapping(prefix = "cairn.mcp")
public interface McpConfig {

    /** The token a stdio server acts with (stdio has no request to carry one); absent on an HTTP server. */
    Optional<String> stdioToken();
}

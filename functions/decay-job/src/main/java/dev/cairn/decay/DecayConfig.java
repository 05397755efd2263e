package dev.cairn.decay;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** The decay policy ({@code cairn.decay.*}) and how long one run may take before it stops and reports where. */
@ConfigMapping(prefix = "cairn.decay")
public interface DecayConfig {

    /** Factor per effective day. */
    @WithDefault("0.98")
    double factor();

    /** Effective importance under which an active memory is archived. */
    @WithDefault("0.05")
    double archiveBelow();

    /** How long an archived memory stays before it is deleted. */
    @WithDefault("365d")
    Duration expireAfter();

    @WithDefault("200")
    int pageSize();

    /** Stop between pages after this long (a Lambda's timeout minus a margin); the answer says where to resume. */
    @WithDefault("60s")
    Duration maxRun();
}

package dev.cairn.model.secret;

import dev.cairn.model.error.CairnException;
import java.util.List;
import java.util.stream.Collectors;

/** The team's policy refuses writes holding secrets, and this one holds some. Nothing was stored. */
public class SecretRejected extends CairnException {

    private final String field;
    private final List<Finding> findings;

    /** A write refused by the team's {@code reject} policy. */
    public SecretRejected(String field, List<Finding> findings) {
        this(field, findings, "this team's policy rejects secrets");
    }

    /**
     * A write refused for {@code why}: the team's policy, or a store that refuses secrets whatever the policy (a
     * cached tool result is replayed verbatim, so it is never stored redacted).
     */
    public SecretRejected(String field, List<Finding> findings, String why) {
        super(field + " holds " + findings.size() + (findings.size() == 1 ? " secret" : " secrets") + " ("
                + findings.stream()
                        .map(f -> f.ruleId() + " at " + f.start() + ".." + f.end())
                        .collect(Collectors.joining(", "))
                + "); " + why + ": remove them, or keep them in a secret manager and store a reference");
        this.field = field;
        this.findings = List.copyOf(findings);
    }

    public String field() {
        return field;
    }

    public List<Finding> findings() {
        return findings;
    }

    @Override
    public String kind() {
        return "secret-rejected";
    }

    @Override
    public String title() {
        return "Secret detected";
    }
}

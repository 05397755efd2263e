package dev.cairn.model.session;

import com.github.f4b6a3.ulid.UlidCreator;
import dev.cairn.model.consolidate.Consolidator;
import dev.cairn.model.error.ContentTooLarge;
import dev.cairn.model.error.InvalidInput;
import dev.cairn.model.error.StoreUnavailable;
import dev.cairn.model.error.VersionConflict;
import dev.cairn.model.id.Id;
import dev.cairn.model.identity.Caller;
import dev.cairn.model.memory.MemoryDraft;
import dev.cairn.model.memory.MemoryService;
import dev.cairn.model.memory.MemoryType;
import dev.cairn.model.memory.Scope;
import dev.cairn.model.port.SessionStore;
import dev.cairn.model.secret.Finding;
import dev.cairn.model.secret.SecretGate;
import dev.cairn.model.secret.SecretPolicy;
import dev.cairn.model.secret.SecretRejected;
import dev.cairn.model.secret.SecretScanner;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The session buffer: appends that never lose a message under concurrency, and folding of the oldest messages into
 * the rolling summary once there are more than {@code foldAt} recent ones.
 *
 * <p>An append takes the lowest free message number above the head's {@code lastSeq} by writing the message there
 * (a conditional put), then moves the head forward with a conditional write, retrying on conflict. Folding is a
 * conditional head write too: if two writers fold at once, one wins and the other re-reads and finds nothing to do.
 * Folded messages stay stored (they are the evidence extraction points to); only the buffer's view moves on.
 */
public final class SessionService {

    /**
     * @param foldAt         recent messages that trigger folding (M, default 30)
     * @param foldCount      oldest messages folded at a time (K, default M/2)
     * @param maxMessageBytes largest message accepted (UTF-8)
     * @param summaryChars   largest rolling summary in characters (default 6,000: at 4,000 BEAM's technical folds
     *                       lost a tenth of their names and stated choices; see the README's summary bench)
     */
    public record Limits(int foldAt, int foldCount, int maxMessageBytes, int summaryChars) {

        public Limits {
            if (foldAt < 2 || foldCount < 1 || foldCount > foldAt) {
                throw new IllegalArgumentException("need 2 ≤ foldAt and 1 ≤ foldCount ≤ foldAt");
            }
            if (summaryChars < 1) {
                throw new IllegalArgumentException("need summaryChars ≥ 1, was " + summaryChars);
            }
        }

        public static Limits defaults() {
            return new Limits(30, 15, 32 * 1024, 6000);
        }
    }

    /** What a client sends: role, content, optional time. */
    public record MessageDraft(String role, String content, Instant occurredAt) {}

    /**
     * What an append answers (API.md: {message_id, message_count, summary_version}); {@code remembered} holds the
     * memories an explicit "remember that …" in this message created.
     */
    public record Appended(
            Id messageId, long messageCount, long summaryVersion, List<Consolidator.Outcome> remembered) {}

    /** A session as the API shows it: rolling summary and the messages not folded into it. */
    public record View(
            String rollingSummary,
            List<SessionMessage> recentMessages,
            List<String> tempFacts,
            long summaryVersion,
            long messageCount,
            boolean ended) {}

    /** What ending a session did (API.md: {extracted: [memory], skipped: [{text, reason}]}). */
    public record Ended(List<Consolidator.Outcome> extracted, List<FactExtractor.Skipped> skipped) {}

    /**
     * What ending the session would extract and skip, with nothing written ({@code GET …/extract-preview}). Each
     * proposed memory is the draft {@code end} would hand to the write path, its content redacted as a secret-redacting
     * team's write would store it ({@code redacted}); under a rejecting policy it is listed as skipped ({@code secret}).
     * Consolidation (created, reinforced, superseded) is decided only when written, so it is not part of the preview.
     */
    public record Preview(boolean ended, List<Proposed> wouldExtract, List<FactExtractor.Skipped> skipped) {}

    public record Proposed(
            MemoryType type, Scope scope, String content, double confidence, List<Id> evidence, boolean redacted) {}

    private final SessionStore store;
    private final Summarizer summarizer;
    private final FactExtractor extractor;
    private final MemoryService memories;
    private final Consolidator consolidator;
    private final SecretGate secrets;
    private final Clock clock;
    private final Limits limits;
    private final SessionAccess access;

    public SessionService(
            SessionStore store,
            Summarizer summarizer,
            FactExtractor extractor,
            MemoryService memories,
            Consolidator consolidator,
            SecretGate secrets,
            Clock clock,
            Limits limits) {
        this.consolidator = consolidator;
        this.store = store;
        this.summarizer = summarizer;
        this.extractor = extractor;
        this.memories = memories;
        this.secrets = secrets;
        this.clock = clock;
        this.limits = limits;
        this.access = new SessionAccess(store, clock);
    }

    /** Who may use which session; the session's other routes (cache, usage, context) ask it too. */
    public SessionAccess access() {
        return access;
    }

    /**
     * Ends the session: the facts its user stated become memories through the ordinary write path (namespace checks,
     * secret gate, conditional write, indexing), then the session is closed to appends. Ending twice extracts nothing
     * the second time. Preferences are the user's own ({@code scope=user}); conventions, decisions, environment and
     * facts belong to the team. Each memory's evidence is the ids of the messages that stated it.
     */
    public Ended end(Caller caller, Id team, Id session) {
        caller.requireMember(team);
        if (store.head(team, session).isEmpty()) {
            // nobody has written to it: nothing to extract, and ending it must not create and close it, or a
            // mistyped id would be taken for good (its first append answering 409 "has ended")
            return new Ended(List.of(), List.of());
        }
        SessionHead head = access.writable(caller, team, session);
        if (head.ended()) {
            return new Ended(List.of(), List.of());
        }
        List<FactExtractor.Skipped> skipped = new ArrayList<>();
        List<FactExtractor.Fact> pending = pending(head, skipped);
        List<Consolidator.Outcome> extracted = write(caller, team, session, pending, skipped);
        while (true) {
            SessionHead h = store.head(team, session).orElseThrow(); // writable() created it
            if (h.ended()) {
                break;
            }
            try {
                store.putHead(
                        new SessionHead(
                                team,
                                session,
                                h.version() + 1,
                                h.lastSeq(),
                                h.foldedThrough(),
                                h.summary(),
                                h.summaryVersion(),
                                true,
                                clock.instant(),
                                h.owner()),
                        h.version());
                break;
            } catch (VersionConflict e) {
                // an append or a fold moved the head: read it again and close it
            }
        }
        return new Ended(extracted, skipped);
    }

    /**
     * What {@link #end} would extract and skip now, writing nothing: no memory, no head change, no secret metric. A
     * session nobody has written to, or one already ended, would extract nothing.
     *
     * @throws dev.cairn.model.error.NotFound when the session belongs to another user
     */
    public Preview preview(Caller caller, Id team, Id session) {
        Optional<SessionHead> head = access.readable(caller, team, session);
        if (head.isEmpty() || head.get().ended()) {
            return new Preview(head.isPresent(), List.of(), List.of());
        }
        List<FactExtractor.Skipped> skipped = new ArrayList<>();
        List<Proposed> proposed = new ArrayList<>();
        for (FactExtractor.Fact f : pending(head.get(), skipped)) {
            // the secret gate's decision without its counters: a preview is not a write
            List<Finding> found = secrets.scanner().scan(f.content());
            if (!found.isEmpty() && secrets.policyOf(team) == SecretPolicy.REJECT) {
                skipped.add(new FactExtractor.Skipped(SecretScanner.redact(f.content(), found), "secret"));
                continue;
            }
            proposed.add(new Proposed(
                    f.type(),
                    f.scope(),
                    found.isEmpty() ? f.content() : SecretScanner.redact(f.content(), found),
                    f.confidence(),
                    evidence(f),
                    !found.isEmpty()));
        }
        return new Preview(false, proposed, skipped);
    }

    /**
     * The facts ending the session writes, the extractor's skipped statements added to {@code skipped}. Facts from
     * messages that asked to be remembered are left out: they were written when their message arrived.
     */
    private List<FactExtractor.Fact> pending(SessionHead head, List<FactExtractor.Skipped> skipped) {
        List<SessionMessage> messages =
                head.lastSeq() == 0 ? List.of() : store.messages(head.team(), head.session(), 1, head.lastSeq());
        FactExtractor.Extraction extraction = extractor.extract(messages);
        skipped.addAll(extraction.skipped());
        return extraction.facts().stream()
                .filter(f ->
                        !f.explicit() && !f.evidence().stream().allMatch(m -> Statements.asksToRemember(m.content())))
                .toList();
    }

    /** A fact's evidence: the ids of the messages that stated it, each once, at most the write path's limit. */
    private List<Id> evidence(FactExtractor.Fact f) {
        return f.evidence().stream()
                .map(SessionMessage::id)
                .distinct()
                .limit(memories.limits().maxEvidence())
                .toList();
    }

    public Appended append(Caller caller, Id team, Id session, MessageDraft draft) {
        caller.requireMember(team);
        SessionMessage.Role role = role(draft);
        String content = content(draft);
        Instant now = clock.instant();
        Instant occurredAt = occurredAt(draft, now);
        content = secrets.screen(team, "content", content).text();
        SessionHead head = access.writable(caller, team, session);
        if (head.ended()) {
            throw new SessionEnded(session.value());
        }
        Id id = new Id(UlidCreator.getMonotonicUlid().toString().toLowerCase(Locale.ROOT));
        long seq = head.lastSeq() + 1;
        while (!store.putMessage(team, session, new SessionMessage(id, seq, role, content, occurredAt))) {
            seq++; // another writer took this number: the next free one is ours
        }
        SessionHead moved = advance(team, session, seq, now);
        SessionHead folded = foldIfNeeded(moved);
        List<Consolidator.Outcome> remembered = List.of();
        if (role == SessionMessage.Role.USER && Statements.asksToRemember(content)) {
            // "remember that …" is a trigger of its own: written now, not at session end (a cheap cue check first,
            // so an LLM extractor is called only for messages that ask)
            SessionMessage stored = new SessionMessage(id, seq, role, content, occurredAt);
            List<FactExtractor.Fact> explicit;
            try {
                explicit = extractor.extract(List.of(stored)).facts().stream()
                        .map(f -> f.explicit()
                                ? f
                                : new FactExtractor.Fact(
                                        f.type(), f.content(), f.confidence(), f.evidence(), true, f.scope()))
                        .toList();
            } catch (StoreUnavailable e) {
                // the message is stored; an append never fails because the extraction model is down
                explicit = List.of();
            }
            remembered = write(caller, team, session, explicit, new ArrayList<>());
        }
        // the message's own position, not the head's: two concurrent appends must not both answer the later count
        return new Appended(id, seq, folded.summaryVersion(), remembered);
    }

    public View get(Caller caller, Id team, Id session) {
        SessionHead head = access.readable(caller, team, session)
                .orElse(SessionHead.empty(team, session, clock.instant(), caller.user()));
        List<SessionMessage> recent = head.recentCount() == 0
                ? List.of()
                : store.messages(team, session, head.foldedThrough() + 1, head.lastSeq()).stream()
                        .map(m -> new SessionMessage(
                                m.id(), m.seq(), m.role(), secrets.forRead(m.content()), m.occurredAt()))
                        .toList();
        return new View(
                secrets.forRead(head.summary()),
                recent,
                RuleBasedExtractor.temporaryFacts(recent, 10),
                head.summaryVersion(),
                head.lastSeq(),
                head.ended());
    }

    /**
     * Writes facts through consolidation (a repeat reinforces, a contradiction supersedes) and the ordinary write
     * path; refusals become skipped entries with a reason. A fact happened when the last message stating it was
     * sent, which is what decides between contradicting facts.
     */
    private List<Consolidator.Outcome> write(
            Caller caller, Id team, Id session, List<FactExtractor.Fact> facts, List<FactExtractor.Skipped> skipped) {
        List<Consolidator.Outcome> written = new ArrayList<>();
        for (FactExtractor.Fact f : facts) {
            List<String> evidence = evidence(f).stream().map(Id::value).toList();
            String occurredAt = f.evidence().stream()
                    .map(SessionMessage::occurredAt)
                    .max(Instant::compareTo)
                    .map(t ->
                            t.truncatedTo(java.time.temporal.ChronoUnit.MILLIS).toString())
                    .orElse(null);
            MemoryDraft draft = new MemoryDraft(
                    f.content(),
                    f.type().wire(),
                    f.scope().wire(),
                    null,
                    null,
                    f.confidence(),
                    occurredAt,
                    session.value(),
                    evidence);
            try {
                written.add(consolidator.write(caller, team, draft));
            } catch (SecretRejected e) {
                skipped.add(new FactExtractor.Skipped(SecretScanner.redact(f.content(), e.findings()), "secret"));
            } catch (InvalidInput | ContentTooLarge e) {
                skipped.add(new FactExtractor.Skipped(f.content(), "invalid: " + e.getMessage()));
            }
        }
        return written;
    }

    /** Moves the head's {@code lastSeq} up to at least {@code seq}, retrying when another writer moved it first. */
    private SessionHead advance(Id team, Id session, long seq, Instant now) {
        while (true) {
            SessionHead h = store.head(team, session).orElseThrow(); // writable() created it
            if (h.lastSeq() >= seq) {
                return h; // a later writer already counted our message
            }
            SessionHead next = new SessionHead(
                    team,
                    session,
                    h.version() + 1,
                    seq,
                    h.foldedThrough(),
                    h.summary(),
                    h.summaryVersion(),
                    h.ended(),
                    now,
                    h.owner());
            try {
                store.putHead(next, h.version());
                return next;
            } catch (VersionConflict e) {
                // re-read and try again
            }
        }
    }

    /** Folds the oldest {@code foldCount} messages while more than {@code foldAt} are recent. */
    private SessionHead foldIfNeeded(SessionHead start) {
        SessionHead h = start;
        while (h.recentCount() > limits.foldAt()) {
            long from = h.foldedThrough() + 1;
            long to = h.foldedThrough() + limits.foldCount();
            List<SessionMessage> folded = store.messages(h.team(), h.session(), from, to);
            String summary = summarizer.fold(h.summary(), folded, limits.summaryChars());
            SessionHead next = new SessionHead(
                    h.team(),
                    h.session(),
                    h.version() + 1,
                    h.lastSeq(),
                    to,
                    summary,
                    h.summaryVersion() + 1,
                    h.ended(),
                    clock.instant(),
                    h.owner());
            try {
                store.putHead(next, h.version());
                h = next;
            } catch (VersionConflict e) {
                h = store.head(h.team(), h.session()).orElseThrow(); // someone else moved it: look again
            }
        }
        return h;
    }

    private static SessionMessage.Role role(MessageDraft d) {
        if (d == null || d.role() == null) {
            throw new InvalidInput("role", "is required: user, assistant or tool");
        }
        return switch (d.role()) {
            case "user" -> SessionMessage.Role.USER;
            case "assistant" -> SessionMessage.Role.ASSISTANT;
            case "tool" -> SessionMessage.Role.TOOL;
            default -> throw new InvalidInput("role", "must be user, assistant or tool");
        };
    }

    /**
     * When the message was sent: the client's time if given, else now. A time before 1970 or more than
     * {@link dev.cairn.model.validation.Checks#FUTURE_SKEW} ahead is refused: it would pin the message's freshness.
     */
    private static Instant occurredAt(MessageDraft d, Instant now) {
        if (d.occurredAt() == null) {
            return now;
        }
        dev.cairn.model.validation.Checks c = new dev.cairn.model.validation.Checks();
        c.bounded("occurred_at", d.occurredAt(), now);
        c.throwIfAny();
        return d.occurredAt();
    }

    private String content(MessageDraft d) {
        if (d.content() == null || d.content().isBlank()) {
            throw new InvalidInput("content", "is required and must not be blank");
        }
        int bytes = d.content().getBytes(StandardCharsets.UTF_8).length;
        if (bytes > limits.maxMessageBytes()) {
            throw new ContentTooLarge("content", bytes, limits.maxMessageBytes());
        }
        return d.content();
    }
}

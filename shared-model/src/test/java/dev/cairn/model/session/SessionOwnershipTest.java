package dev.cairn.model.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.model.cache.ContextAssembler;
import dev.cairn.model.cache.ToolCache;
import dev.cairn.model.cache.ToolCacheSettings;
import dev.cairn.model.cache.UsageLedger;
import dev.cairn.model.error.InvalidInput;
import dev.cairn.model.error.NotFound;
import dev.cairn.model.id.Id;
import dev.cairn.model.identity.Caller;
import dev.cairn.model.index.Indexer;
import dev.cairn.model.memory.Memory;
import dev.cairn.model.memory.MemoryDraft;
import dev.cairn.model.memory.MemoryLimits;
import dev.cairn.model.memory.MemoryService;
import dev.cairn.model.recall.RecallService;
import dev.cairn.model.recall.RecallSettings;
import dev.cairn.model.secret.SecretGate;
import dev.cairn.model.secret.SecretPolicy;
import dev.cairn.model.secret.SecretScanner;
import dev.cairn.model.session.SessionService.MessageDraft;
import dev.cairn.model.testkit.HashingEmbedder;
import dev.cairn.model.testkit.InMemoryMemoryStore;
import dev.cairn.model.testkit.InMemorySessionCacheStore;
import dev.cairn.model.testkit.InMemorySessionStore;
import dev.cairn.model.testkit.InMemoryVectorIndex;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * A session belongs to the user who created it (or to the team, when created so), on every route; a context snapshot
 * never shows its reader a memory they could not recall, and replays faithfully for its owner.
 */
class SessionOwnershipTest {

    private static final Id TEAM = new Id("acme");
    private static final Caller ALICE = new Caller(new Id("alice"), Set.of(TEAM));
    private static final Caller BOB = new Caller(new Id("bob"), Set.of(TEAM));
    private static final Id S = new Id("s1");

    private final Clock clock = Clock.systemUTC();
    private final InMemorySessionStore sessionStore = new InMemorySessionStore();
    private final InMemorySessionCacheStore cacheStore = new InMemorySessionCacheStore();
    private final InMemoryMemoryStore memoryStore = new InMemoryMemoryStore();
    private final SecretGate gate = SecretGate.uniform(SecretScanner.bundled(), SecretPolicy.REDACT);
    private final InMemoryVectorIndex index = new InMemoryVectorIndex();
    private final Indexer indexer = new Indexer(memoryStore, index, new HashingEmbedder());
    private final MemoryService memories = new MemoryService(memoryStore, indexer, clock, MemoryLimits.DEFAULTS, gate);
    private final SessionService sessions = new SessionService(
            sessionStore,
            new ExtractiveSummarizer(),
            new RuleBasedExtractor(SecretScanner.bundled()),
            memories,
            null,
            gate,
            clock,
            SessionService.Limits.defaults());
    private final ContextAssembler contexts = new ContextAssembler(
            sessions,
            new RecallService(
                    memoryStore,
                    index,
                    new HashingEmbedder(),
                    indexer,
                    clock,
                    RecallSettings.DEFAULTS,
                    Runnable::run,
                    gate),
            memories,
            cacheStore,
            gate,
            clock,
            new ContextAssembler.Settings(Map.of(), 1024, 8, 8000));
    private final ToolCache cache =
            new ToolCache(cacheStore, sessions.access(), SecretScanner.bundled(), clock, ToolCacheSettings.defaults());
    private final UsageLedger usage =
            new UsageLedger(cacheStore, sessions.access(), new UsageLedger.Settings(Map.of(), 1.25, 0.1, 10_000_000));

    private Memory remember(Caller who, String scope, String text) {
        return memories.create(
                        who, TEAM, new MemoryDraft(text, "preference", scope, null, null, null, null, null, null))
                .memory();
    }

    private void say(Caller who, Id session, String text) {
        sessions.append(who, TEAM, session, new MessageDraft("user", text, null));
    }

    @Test
    void end_shouldLeaveNoTrace_ofASessionNobodyWroteTo_soAMistypedIdStaysUsable() {
        Id typo = new Id("nope-never");

        assertThat(sessions.end(ALICE, TEAM, typo).extracted()).isEmpty();

        assertThat(sessionStore.head(TEAM, typo)).isEmpty();
        say(BOB, typo, "Now it is my session.");
        assertThat(sessions.get(BOB, TEAM, typo).recentMessages()).hasSize(1);
    }

    @Test
    void everySessionRoute_shouldAnswerNotFound_toAnotherUserOfTheTeam_andChangeNothing() {
        say(ALICE, S, "Let us plan the Orion release");
        cache.put(
                ALICE,
                TEAM,
                S,
                new ToolCache.PutDraft("read_file", "{\"p\":\"~/.ssh/config\"}", "x", "\"x\"", null, null));
        long headVersion = sessionStore.head(TEAM, S).orElseThrow().version();
        List<Consumer<Caller>> routes = List.of(
                c -> say(c, S, "I prefer to be called Ally."),
                c -> sessions.get(c, TEAM, S),
                c -> sessions.end(c, TEAM, S),
                c -> contexts.assemble(c, TEAM, S, null, null),
                c -> contexts.restore(c, TEAM, S, 1),
                c -> contexts.setPrefix(c, TEAM, S, new ContextAssembler.PrefixDraft("sys", null, null)),
                c -> cache.lookup(
                        c, TEAM, S, new ToolCache.LookupDraft("read_file", "{\"p\":\"~/.ssh/config\"}", null)),
                c -> cache.put(c, TEAM, S, new ToolCache.PutDraft("t", "{}", "y", "\"y\"", null, null)),
                c -> cache.invalidate(c, TEAM, S, null),
                c -> cache.stats(c, TEAM, S),
                c -> usage.record(c, TEAM, S, new UsageLedger.UsageDraft("m", 1L, 1L, null, null)),
                c -> usage.report(c, TEAM, S));
        for (Consumer<Caller> route : routes) {
            assertThatThrownBy(() -> route.accept(BOB)).isInstanceOf(NotFound.class);
        }
        assertThat(sessionStore.head(TEAM, S).orElseThrow().version()).isEqualTo(headVersion);
        assertThat(sessions.get(ALICE, TEAM, S).recentMessages()).hasSize(1);
        assertThat(cache.stats(ALICE, TEAM, S).entries()).isEqualTo(1);
        assertThat(memoryStore.scan(TEAM, null, 100)).isEmpty(); // bob's "end" extracted nothing in his name
    }

    @Test
    void aTeamSession_shouldBeOpenToEveryMember_onlyWhenCreatedSo() {
        Id shared = new Id("standup");
        assertThat(sessions.access().create(ALICE, TEAM, shared, "team").created())
                .isTrue();
        say(ALICE, shared, "Standup notes for Tuesday");
        say(BOB, shared, "I am on the Orion migration");
        assertThat(sessions.get(BOB, TEAM, shared).messageCount()).isEqualTo(2);
        // visibility is fixed at creation: asking again the same way is fine, the other way is refused
        assertThat(sessions.access().create(BOB, TEAM, shared, "team").created())
                .isFalse();
        assertThatThrownBy(() -> sessions.access().create(ALICE, TEAM, shared, "user"))
                .isInstanceOf(SessionExists.class);
        say(ALICE, S, "private");
        assertThatThrownBy(() -> sessions.access().create(ALICE, TEAM, S, "team"))
                .isInstanceOf(SessionExists.class);
        assertThatThrownBy(() -> sessions.access().create(ALICE, TEAM, new Id("x"), "everyone"))
                .isInstanceOf(InvalidInput.class);
    }

    @Test
    void aRestoredSnapshot_shouldNeverShowAReaderAnotherUsersMemory_inATeamSession() {
        Id shared = new Id("pairing");
        sessions.access().create(ALICE, TEAM, shared, "team");
        Memory hers = remember(ALICE, "user", "Alice prefers to be called Ally in reviews");
        Memory team = remember(ALICE, "team", "The team prefers squash merges");
        say(ALICE, shared, "What do we prefer?");
        ContextAssembler.Context assembled = contexts.assemble(ALICE, TEAM, shared, null, null);
        assertThat(assembled.memories()).extracting(Memory::id).contains(hers.id(), team.id());

        ContextAssembler.Context seenByBob = contexts.restore(BOB, TEAM, shared, assembled.turn());

        assertThat(seenByBob.memories()).extracting(Memory::id).containsExactly(team.id());
        assertThat(seenByBob.blocks()).allSatisfy(b -> assertThat(b.text()).doesNotContain("Ally"));
        assertThat(seenByBob.blocks()).anySatisfy(b -> assertThat(b.text()).contains("squash merges"));
        assertThat(seenByBob.blocks()).noneSatisfy(b -> assertThat(b.kind()).isEqualTo("memory-index"));
    }

    @Test
    void aRestoredSnapshot_shouldReplayFaithfully_forItsOwner() {
        remember(ALICE, "user", "Alice prefers tabs");
        remember(ALICE, "team", "The team prefers trunk-based development");
        say(ALICE, S, "Hello");
        ContextAssembler.Context assembled = contexts.assemble(ALICE, TEAM, S, null, null);

        ContextAssembler.Context replayed = contexts.restore(ALICE, TEAM, S, assembled.turn());

        assertThat(replayed.blocks()).isEqualTo(assembled.blocks());
        assertThat(replayed.memories())
                .extracting(Memory::id)
                .containsExactlyElementsOf(
                        assembled.memories().stream().map(Memory::id).toList());
        assertThat(replayed.memories()).extracting(Memory::content).contains("Alice prefers tabs");
    }

    @Test
    void aDeletedMemory_shouldLeaveTheReplay_evenForItsOwner() {
        Memory gone = remember(ALICE, "user", "Alice's old VPN password hint is the cat's name");
        say(ALICE, S, "Hello");
        long turn = contexts.assemble(ALICE, TEAM, S, null, null).turn();
        memories.delete(ALICE, TEAM, gone.id(), null);

        ContextAssembler.Context replayed = contexts.restore(ALICE, TEAM, S, turn);

        assertThat(replayed.memories()).isEmpty();
        assertThat(replayed.blocks()).allSatisfy(b -> assertThat(b.text()).doesNotContain("VPN"));
    }

    @Test
    void concurrentAppends_shouldEachAnswerTheirOwnPosition() throws Exception {
        int writers = 8;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        CountDownLatch go = new CountDownLatch(1);
        Set<Long> counts = ConcurrentHashMap.newKeySet();
        List<Future<?>> futures = new ArrayList<>();
        try {
            for (int w = 0; w < writers; w++) {
                int writer = w;
                futures.add(pool.submit(() -> {
                    go.await();
                    for (int i = 0; i < 25; i++) {
                        counts.add(
                                sessions.append(ALICE, TEAM, S, new MessageDraft("user", "w" + writer + " m" + i, null))
                                        .messageCount());
                    }
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> f : futures) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(counts).hasSize(writers * 25); // no two callers were told the same position
        assertThat(sessionStore.messages(TEAM, S, 1, 1000))
                .extracting(SessionMessage::seq)
                .containsExactlyInAnyOrderElementsOf(counts);
    }

    @Test
    void anOccurredAtBefore1970_orFarInTheFuture_shouldBeRefused_andChangeNothing() {
        for (Instant t : List.of(Instant.parse("0000-01-01T00:00:00Z"), Instant.parse("2999-01-01T00:00:00Z"))) {
            assertThatThrownBy(() -> sessions.append(ALICE, TEAM, S, new MessageDraft("user", "hi", t)))
                    .isInstanceOf(InvalidInput.class)
                    .hasMessageContaining("occurred_at");
            assertThatThrownBy(() -> memories.create(
                            ALICE, TEAM, new MemoryDraft("x", null, null, null, null, null, t.toString(), null, null)))
                    .isInstanceOf(InvalidInput.class)
                    .hasMessageContaining("occurred_at");
        }
        assertThat(sessionStore.head(TEAM, S)).isEmpty();
        assertThat(memoryStore.scan(TEAM, null, 100)).isEmpty();
        say(ALICE, S, "a minute ahead is clock skew, not the future");
    }
}

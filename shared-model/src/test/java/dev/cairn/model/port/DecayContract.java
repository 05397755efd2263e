package dev.cairn.model.port;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.model.decay.DecayJob;
import dev.cairn.model.decay.DecayPolicy;
import dev.cairn.model.decay.Restore;
import dev.cairn.model.decay.ScheduledDecay;
import dev.cairn.model.id.Id;
import dev.cairn.model.identity.Caller;
import dev.cairn.model.index.Indexer;
import dev.cairn.model.memory.Memory;
import dev.cairn.model.memory.MemoryState;
import dev.cairn.model.testkit.HashingEmbedder;
import dev.cairn.model.testkit.Memories;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The decay job on a backend (SQLite + files + Lucene; dynalite + S3Mock + OpenSearch; the in-memory fakes): 10,000
 * memories of varied
 * ages, importances and access counts in one team. The expected verdict of each memory comes from {@link DecayPolicy}
 * (whose formula has its own property tests); what this proves is that the job, paging through a real store, applies
 * it to exactly those memories and carries each decision through all three stores.
 */
public abstract class DecayContract {

    private static final int N = 10_000;
    private static final Caller READER = new Caller(new Id("reader"), Set.of());
    /** As the decay function runs it: a page's memories decided side by side. */
    private static final ExecutorService DECAY_POOL = Executors.newFixedThreadPool(8, r -> {
        Thread t = new Thread(r, "decay-contract");
        t.setDaemon(true);
        return t;
    });
    /** Vectors by embedding model and texts: embedding 10,000 texts once per JVM is enough. */
    private static final Map<String, List<float[]>> VECTORS = new HashMap<>();

    private static final Embedder HASHING = new HashingEmbedder();

    /** The three stores the job works on, from one backend. */
    public record Stores(MemoryStore store, ColdStore cold, VectorIndex index) {}

    protected abstract Stores stores();

    private MemoryStore store() {
        return stores().store();
    }

    private ColdStore cold() {
        return stores().cold();
    }

    private VectorIndex index() {
        return stores().index();
    }

    /** Makes the index's latest writes visible to search (OpenSearch refreshes on a timer). */
    protected void refresh() {}

    /** The model the memories are embedded with; the same instance on every call. */
    protected Embedder embedder() {
        return HASHING;
    }

    /**
     * {@code n} distinct memory texts from {@code seed}, the same on every call: a number of its own in each, so no
     * two memories are one text and a memory's own text finds it.
     */
    protected List<String> texts(int n, long seed) {
        String[] services = {"billing", "search", "checkout", "auth", "ingest", "gateway", "payments", "reporting"};
        String[] stores = {"PostgreSQL", "MySQL", "SQLite", "Redis", "DynamoDB", "ClickHouse"};
        String[] names = {"Alice", "Bob", "Chen", "Dana", "Emeka", "Farah", "Gustav", "Hana"};
        Random r = new Random(seed);
        List<String> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add("Note " + i + ": the " + services[r.nextInt(services.length)] + " service keeps its data in "
                    + stores[r.nextInt(stores.length)] + ", said " + names[r.nextInt(names.length)] + " in sprint "
                    + r.nextInt(400) + ".");
        }
        return out;
    }

    private List<float[]> vectors(List<String> texts) {
        synchronized (VECTORS) {
            return VECTORS.computeIfAbsent(embedder().modelId() + "/" + texts.hashCode(), k -> {
                List<float[]> out = new ArrayList<>();
                for (int i = 0; i < texts.size(); i += 500) {
                    out.addAll(embedder().embedDocuments(texts.subList(i, Math.min(i + 500, texts.size()))));
                }
                return out;
            });
        }
    }

    @Test
    void tenThousandMemories_shouldArchiveExactlyTheFadedOnes_onceAndForAll_restoreOne_andExpireWithEverything()
            throws Exception {
        Id team = new Id("d" + UUID.randomUUID().toString().replace("-", "").substring(0, 12));
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        long t0 = System.nanoTime();
        List<String> texts = texts(N, 42);
        List<float[]> vecs = vectors(texts);
        Indexer indexer = new Indexer(store(), index(), embedder());
        List<Memory> seeded = fadingMemories(team, N, now, texts);
        // seeding: records in parallel (dynalite answers one call at a time, but calls overlap their round trips),
        // vectors straight into the index in bulk; the records stay "pending" for the indexer, which the job's
        // archiving does not mind (an archived stub's index removal marks it indexed)
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<Future<?>> loads = insertInParallel(store(), seeded, pool);
        for (int i = 0; i < N; i += 500) {
            List<VectorIndex.Entry> entries = new ArrayList<>();
            for (int j = i; j < Math.min(i + 500, N); j++) {
                Memory m = seeded.get(j);
                entries.add(new VectorIndex.Entry(
                        new VectorIndex.Key(team, m.id(), m.version()),
                        m.scope(),
                        m.user(),
                        m.type(),
                        m.tags(),
                        m.content(),
                        m.occurredAt(),
                        vecs.get(j),
                        embedder().modelId()));
            }
            index().upsert(entries);
        }
        for (Future<?> f : loads) {
            f.get();
        }
        pool.shutdown();

        phase("seeded 10,000 memories", t0);
        DecayPolicy policy = DecayPolicy.defaults();
        Set<Id> expected = seeded.stream()
                .filter(m -> policy.verdict(m, now, null) == DecayPolicy.Verdict.ARCHIVE)
                .map(Memory::id)
                .collect(Collectors.toSet());
        assertThat(expected.size()).as("a varied set: some fade, most stay").isBetween(N / 10, N * 9 / 10);

        DecayJob job =
                new DecayJob(store(), cold(), indexer, policy, Clock.fixed(now, ZoneOffset.UTC), 200, DECAY_POOL);
        long t1 = System.nanoTime();
        DecayJob.Progress first = job.run(team, null, () -> false);
        phase("first run, " + first.archived() + " archived", t1);
        assertThat(first.scanned()).isEqualTo(N);
        assertThat(first.archived()).isEqualTo(expected.size());
        Map<Id, Memory> after = byId(team);
        for (Memory m : seeded) {
            Memory now1 = after.get(m.id());
            if (expected.contains(m.id())) {
                assertThat(now1.state()).as(m.id().value()).isEqualTo(MemoryState.ARCHIVED);
                assertThat(now1.content()).isEmpty();
            } else {
                assertThat(now1.state()).as(m.id().value()).isEqualTo(MemoryState.ACTIVE);
                assertThat(now1.version()).isEqualTo(1);
            }
        }
        List<Id> sample = expected.stream().sorted().limit(40).toList();
        for (Id id : sample) {
            Memory original = seeded.get(Integer.parseInt(id.value().substring(1)));
            assertThat(cold().get(team, id).orElseThrow().content()).isEqualTo(original.content());
            // the context, like the content, lives only in the cold copy while archived
            assertThat(cold().get(team, id).orElseThrow().context()).isEqualTo(original.context());
            assertThat(after.get(id).context()).isNull();
        }
        assertThat(sample.stream()
                        .map(id -> seeded.get(Integer.parseInt(id.value().substring(1)))
                                .context()))
                .as("the sample holds memories with a context")
                .anyMatch(java.util.Objects::nonNull);

        // the second run on the same day: nothing to do, nothing written
        long t2 = System.nanoTime();
        DecayJob.Progress second = job.run(team, null, () -> false);
        phase("second run", t2);
        assertThat(second.archived()).isZero();
        assertThat(second.deleted()).isZero();
        assertThat(byId(team)).isEqualTo(after);

        // archived memories are not recalled; kept ones are (so the check itself can fail)
        refresh();
        List<Id> kept = seeded.stream()
                .map(Memory::id)
                .filter(id -> !expected.contains(id))
                .limit(20)
                .toList();
        for (Id id : sample.subList(0, 20)) {
            assertThat(recalled(team, id, seeded))
                    .as("archived %s recalled", id.value())
                    .isFalse();
        }
        for (Id id : kept) {
            assertThat(recalled(team, id, seeded))
                    .as("kept %s recalled", id.value())
                    .isTrue();
        }

        // restore brings one back into recall
        Id back = sample.get(0);
        Memory restored = new Restore(store(), cold(), indexer, Clock.fixed(now, ZoneOffset.UTC))
                .restore(new Caller(new Id("alice"), Set.of(team)), team, back);
        assertThat(restored.state()).isEqualTo(MemoryState.ACTIVE);
        assertThat(restored.context())
                .isEqualTo(
                        seeded.get(Integer.parseInt(back.value().substring(1))).context());
        assertThat(store().get(team, back).orElseThrow().context()).isEqualTo(restored.context());
        refresh();
        assertThat(recalled(team, back, seeded)).isTrue();

        // a day later with a one-hour expiry: every archived memory goes, hot record, vector and cold copy
        DecayJob expiry = new DecayJob(
                store(),
                cold(),
                indexer,
                new DecayPolicy(policy.decay(), policy.archiveBelow(), Duration.ofHours(1)),
                Clock.fixed(now.plus(Duration.ofDays(1)), ZoneOffset.UTC),
                200,
                DECAY_POOL);
        long t3 = System.nanoTime();
        DecayJob.Progress third = expiry.run(team, null, () -> false);
        phase("expiry run, " + third.deleted() + " deleted", t3);
        assertThat(third.deleted()).isEqualTo(expected.size() - 1);
        refresh();
        for (Id id : sample.subList(1, sample.size())) {
            assertThat(store().get(team, id)).as(id.value()).isEmpty();
            assertThat(cold().get(team, id)).as(id.value()).isEmpty();
            assertThat(cold().storedAt(team, id)).isEmpty();
        }
        for (Id id : sample.subList(1, 11)) {
            assertThat(recalled(team, id, seeded)).isFalse();
        }
        assertThat(store().get(team, back).orElseThrow().state()).isEqualTo(MemoryState.ACTIVE);
    }

    /**
     * {@code DELETE /memories/{id}} on this backend, read back from every store: the record (and its tombstone), the
     * index (a search by the memory's own text and vector), the cold copy. Three paths: an active memory; an archived
     * one deleted where the cold tier is held (the local server); an archived one deleted by a process without it (an
     * AWS API function), finished when the tombstone's purge reaches the stream indexer ({@link Indexer#forget}).
     */
    @Test
    void aDelete_shouldLeaveNothingInAnyStore_whicheverProcessHoldsTheColdTier() {
        Id team = new Id("x" + UUID.randomUUID().toString().replace("-", "").substring(0, 12));
        Caller alice = new Caller(new Id("alice"), Set.of(team));
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        List<String> texts = texts(4, 7);
        List<Memory> all = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            all.add(Memories.memory()
                    .team(team)
                    .id("m" + i)
                    .content(texts.get(i))
                    // m1 and m2 fade below the archive threshold; m0 and the control m3 stay
                    .importance(i == 1 || i == 2 ? 0.01 : 1.0)
                    .createdAt(now.minus(Duration.ofDays(400)))
                    .accessed(1, i == 1 || i == 2 ? now.minus(Duration.ofDays(400)) : now)
                    .build());
        }
        Indexer withCold = new Indexer(store(), index(), embedder(), cold());
        Indexer withoutCold = new Indexer(store(), index(), embedder());
        store().insertAll(all);
        withCold.index(all);
        new DecayJob(
                        store(),
                        cold(),
                        withCold,
                        new DecayPolicy(0.5, 0.2, Duration.ofDays(3650)),
                        Clock.fixed(now, ZoneOffset.UTC),
                        10)
                .run(team, null, () -> false);
        for (int i : new int[] {1, 2}) {
            assertThat(store().get(team, all.get(i).id()).orElseThrow().state()).isEqualTo(MemoryState.ARCHIVED);
            assertThat(cold().get(team, all.get(i).id())).isPresent();
        }

        memories(withCold).delete(alice, team, all.get(0).id(), null);
        memories(withCold).delete(alice, team, all.get(1).id(), null);
        memories(withoutCold).delete(alice, team, all.get(2).id(), null);
        assertThat(cold().get(team, all.get(2).id()))
                .as("a process without the cold tier leaves the copy to the stream indexer")
                .isPresent();
        withCold.forget(team, all.get(2).id());

        refresh();
        for (Memory m : all.subList(0, 3)) {
            String what = m.id().value();
            assertThat(store().get(team, m.id())).as("record of " + what).isEmpty();
            assertThat(store().indexWork(team, m.id()))
                    .as("tombstone of " + what)
                    .isEmpty();
            assertThat(found(team, m)).as("index documents of " + what).isFalse();
            assertThat(cold().get(team, m.id())).as("cold copy of " + what).isEmpty();
            assertThat(cold().storedAt(team, m.id())).as("cold copy of " + what).isEmpty();
        }
        assertThat(cold().list(team, 10)).as("cold copies of the team").isEmpty();
        assertThat(found(team, all.get(3)))
                .as("the control memory is found, so the search can fail")
                .isTrue();
    }

    private dev.cairn.model.memory.MemoryService memories(Indexer indexer) {
        return new dev.cairn.model.memory.MemoryService(
                store(),
                indexer,
                Clock.systemUTC(),
                dev.cairn.model.memory.MemoryLimits.DEFAULTS,
                dev.cairn.model.secret.SecretGate.uniform(
                        dev.cairn.model.secret.SecretScanner.bundled(), dev.cairn.model.secret.SecretPolicy.REDACT));
    }

    /** Whether kNN or BM25 on the memory's own text still finds it. */
    private boolean found(Id team, Memory m) {
        return index()
                .search(new VectorIndex.Search(
                        new VectorIndex.Filter(team, new Id("alice"), null, Set.of(), Set.of()),
                        embedder().embedQuery(m.content()),
                        embedder().modelId(),
                        m.content(),
                        10))
                .stream()
                .anyMatch(c -> c.id().equals(m.id()));
    }

    @Test
    void theSchedule_shouldCoverEveryTeamOnce_acrossInvocationsCutShort_thenStartAFreshPass() {
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        String prefix = "s" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
        Indexer indexer = new Indexer(store(), index(), embedder());
        List<Id> teams = List.of(new Id(prefix + "-a"), new Id(prefix + "-b"), new Id(prefix + "-c"));
        List<String> texts = texts(15, 3);
        int k = 0;
        for (Id team : teams) {
            for (int i = 0; i < 5; i++) {
                // all long unused: each one is archived by the pass
                store().insertAll(List.of(Memories.memory()
                        .id("o" + i)
                        .team(team)
                        .content(texts.get(k++))
                        .importance(0.2)
                        .confidence(0.9)
                        .createdAt(now.minus(Duration.ofDays(500)))
                        .build()));
            }
        }
        DecayJob job =
                new DecayJob(store(), cold(), indexer, DecayPolicy.defaults(), Clock.fixed(now, ZoneOffset.UTC), 2);
        ScheduledDecay schedule =
                new ScheduledDecay(store(), job, Clock.fixed(now, ZoneOffset.UTC), Duration.ofDays(1));
        // a pass under way that has just passed the team before ours: others on a shared backend are not ours
        store().saveDecayCursor("P " + now.getEpochSecond() + " " + prefix);
        Map<Id, Integer> archivedPerTeam = new HashMap<>();
        int invocations = 0;
        ScheduledDecay.Outcome o;
        do {
            o = schedule.run(() -> true); // time is up after every page: each invocation does one page
            invocations++;
            assertThat(invocations).as("the pass must end").isLessThan(200);
        } while (!o.passEnded());
        for (Id team : teams) {
            List<Memory> all = store().scan(team, null, 100);
            archivedPerTeam.put(team, (int)
                    all.stream().filter(m -> m.state() == MemoryState.ARCHIVED).count());
        }
        assertThat(archivedPerTeam)
                .containsEntry(teams.get(0), 5)
                .containsEntry(teams.get(1), 5)
                .containsEntry(teams.get(2), 5);
        assertThat(invocations).isGreaterThanOrEqualTo(9); // 3 pages per team, one per invocation
        assertThat(store().decayCursor()).contains("D " + now.getEpochSecond());

        // within the pass interval the schedule has nothing to do and reads nothing
        ScheduledDecay.Outcome idle = schedule.run(() -> false);
        assertThat(idle.idle()).isTrue();
        assertThat(idle.scanned()).isZero();

        // a day later a new pass starts (again just before our teams) and finds nothing new to archive
        Instant later = now.plus(Duration.ofDays(1)).plusSeconds(1);
        ScheduledDecay nextDay = new ScheduledDecay(
                store(),
                new DecayJob(store(), cold(), indexer, DecayPolicy.defaults(), Clock.fixed(later, ZoneOffset.UTC), 2),
                Clock.fixed(later, ZoneOffset.UTC),
                Duration.ofDays(1));
        store().saveDecayCursor("P " + later.getEpochSecond() + " " + prefix);
        ScheduledDecay.Outcome fresh = nextDay.run(() -> false);
        assertThat(fresh.passEnded()).isTrue();
        assertThat(fresh.scanned()).isEqualTo(15);
        assertThat(fresh.archived()).isZero();
    }

    /**
     * {@code n} memories of one team with varied ages (up to 600 days), importances (0.05–0.94) and access counts (a
     * quarter used, up to 29 times, last halfway between creation and now): a fixed seed, so every backend and the
     * benchmark see the same set.
     */
    public static List<Memory> fadingMemories(Id team, int n, Instant now, List<String> texts) {
        Random rnd = new Random(7);
        List<Memory> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Instant created = now.minus(Duration.ofHours(rnd.nextInt(600 * 24)));
            int accesses = rnd.nextInt(4) == 0 ? rnd.nextInt(30) : 0;
            Instant lastAccess =
                    accesses > 0 ? created.plus(Duration.between(created, now).dividedBy(2)) : null;
            out.add(Memories.memory()
                    .id(String.format("m%07d", i))
                    .team(team)
                    .content(texts.get(i % texts.size()))
                    .importance(0.05 + rnd.nextInt(90) / 100.0)
                    .confidence(0.9)
                    .createdAt(created)
                    .accessed(accesses, lastAccess)
                    .context(i % 3 == 0 ? "the reply to turn " + i : null)
                    .build());
        }
        return out;
    }

    /** Inserts in chunks of 100 on {@code pool}; the caller waits for the futures. */
    public static List<Future<?>> insertInParallel(MemoryStore store, List<Memory> all, ExecutorService pool) {
        List<Future<?>> loads = new ArrayList<>();
        for (int i = 0; i < all.size(); i += 100) {
            List<Memory> chunk = all.subList(i, Math.min(i + 100, all.size()));
            loads.add(pool.submit(() -> store.insertAll(chunk)));
        }
        return loads;
    }

    private void phase(String what, long since) {
        System.out.printf("[%s] %s in %.1f s%n", getClass().getSimpleName(), what, (System.nanoTime() - since) / 1e9);
    }

    private boolean recalled(Id team, Id id, List<Memory> seeded) {
        String text = seeded.get(Integer.parseInt(id.value().substring(1))).content();
        return index()
                .search(new VectorIndex.Search(
                        new VectorIndex.Filter(team, READER.user(), null, Set.of(), Set.of()),
                        embedder().embedQuery(text),
                        embedder().modelId(),
                        text,
                        10))
                .stream()
                .anyMatch(c -> c.id().equals(id));
    }

    private Map<Id, Memory> byId(Id team) {
        Map<Id, Memory> out = new HashMap<>();
        Id after = null;
        for (List<Memory> page; !(page = store().scan(team, after, 1000)).isEmpty(); ) {
            page.forEach(m -> out.put(m.id(), m));
            after = page.get(page.size() - 1).id();
        }
        return out;
    }
}

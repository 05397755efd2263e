package dev.cairn.model.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.model.decay.MemoryCodec;
import dev.cairn.model.error.ContentTooLarge;
import dev.cairn.model.error.InvalidInput;
import dev.cairn.model.id.Id;
import dev.cairn.model.identity.Caller;
import dev.cairn.model.index.Indexer;
import dev.cairn.model.port.VectorIndex;
import dev.cairn.model.secret.SecretGate;
import dev.cairn.model.secret.SecretPolicy;
import dev.cairn.model.secret.SecretRejected;
import dev.cairn.model.secret.SecretScanner;
import dev.cairn.model.testkit.HashingEmbedder;
import dev.cairn.model.testkit.InMemoryMemoryStore;
import dev.cairn.model.testkit.InMemoryVectorIndex;
import dev.cairn.model.testkit.Memories;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A memory's context (issue 18 item 3): text it is found by through the lexical side, kept, screened for secrets and
 * redacted like the content, but never embedded and never part of the content.
 */
class MemoryContextTest {

    private static final Id TEAM = new Id("acme");
    private static final Caller ALICE = new Caller(new Id("alice"), Set.of(TEAM));
    private static final String TOKEN = "ghp_R8kLm2Qw9ZxT4vBn6YpJ3sDf7HgK1cAe5UoI";

    private final InMemoryMemoryStore store = new InMemoryMemoryStore();
    private final InMemoryVectorIndex index = new InMemoryVectorIndex();
    private final HashingEmbedder embedder = new HashingEmbedder();

    private MemoryService service(SecretPolicy policy) {
        return new MemoryService(
                store,
                new Indexer(store, index, embedder),
                Clock.systemUTC(),
                MemoryLimits.DEFAULTS,
                SecretGate.uniform(SecretScanner.bundled(), policy));
    }

    private static MemoryDraft draft(String content, String context) {
        return new MemoryDraft(content, "episode", "team", null, null, null, null, null, null, context);
    }

    private List<VectorIndex.Candidate> search(String text) {
        VectorIndex.Filter filter = new VectorIndex.Filter(TEAM, ALICE.user(), null, Set.of(), Set.of());
        return index.search(new VectorIndex.Search(filter, embedder.embedQuery(text), embedder.modelId(), text, 10));
    }

    @Test
    void aWordOnlyInTheContext_findsTheMemoryLexically_whileTheVectorIsTheContentsAlone() {
        MemoryService memories = service(SecretPolicy.REDACT);
        Memory withContext = memories.create(
                        ALICE, TEAM, draft("Which database should the sessions table use?", "Go with DynamoDB."))
                .memory();
        Memory without = memories.create(ALICE, TEAM, draft("Which database should the sessions table use?", null))
                .memory();

        assertThat(withContext.content()).isEqualTo("Which database should the sessions table use?");
        assertThat(withContext.context()).isEqualTo("Go with DynamoDB.");
        assertThat(withContext.lexicalText()).isEqualTo(withContext.content() + "\n" + withContext.context());
        assertThat(without.context()).isNull();
        List<VectorIndex.Candidate> hits = search("DynamoDB");
        assertThat(hits)
                .filteredOn(c -> c.lexical() > 0)
                .extracting(VectorIndex.Candidate::id)
                .containsExactly(withContext.id());
        // same content, same vector: the context changed the lexical side only
        assertThat(hits)
                .extracting(VectorIndex.Candidate::similarity)
                .containsOnly(hits.get(0).similarity());
    }

    @Test
    void aPatchOfTheContent_keepsTheContext_andTheIndexMatchesItStill() {
        MemoryService memories = service(SecretPolicy.REDACT);
        Memory m = memories.create(
                        ALICE, TEAM, draft("Which database should the sessions table use?", "Go with DynamoDB."))
                .memory();

        Memory patched = memories.patch(
                        ALICE,
                        TEAM,
                        m.id(),
                        1,
                        new PatchDraft("Which database did the review pick?", null, null, null, null, null, null, null))
                .memory();

        assertThat(patched.context()).isEqualTo("Go with DynamoDB.");
        assertThat(patched.version()).isEqualTo(2);
        assertThat(search("DynamoDB"))
                .filteredOn(c -> c.lexical() > 0)
                .extracting(VectorIndex.Candidate::id)
                .containsExactly(m.id());
    }

    @Test
    void anEmptyOrBlankContext_meansNone_butANulOrAnOverLongOneIsRefused() {
        for (String none : new String[] {null, "", " \n\t"}) {
            assertThat(draft("x", none).validate(MemoryLimits.DEFAULTS).context())
                    .isNull();
        }
        assertThatThrownBy(() -> draft("x", "a\u0000b").validate(MemoryLimits.DEFAULTS))
                .isInstanceOf(InvalidInput.class)
                .satisfies(e -> assertThat(((InvalidInput) e).errors())
                        .extracting("field")
                        .containsExactly("context"));
        MemoryLimits limits = new MemoryLimits(10, 4, 4, 10);
        assertThat(draft("x", "é".repeat(5)).validate(limits).context()).hasSize(5);
        assertThatThrownBy(() -> draft("x", "é".repeat(5) + "x").validate(limits))
                .isInstanceOf(ContentTooLarge.class)
                .hasMessageContaining("context");
    }

    @Test
    void aSecretInTheContext_isRefusedUnderReject_andNothingIsStored() {
        MemoryService memories = service(SecretPolicy.REJECT);
        assertThatThrownBy(() -> memories.create(ALICE, TEAM, draft("How do I deploy?", "Use " + TOKEN)))
                .isInstanceOf(SecretRejected.class)
                .satisfies(e -> assertThat(((SecretRejected) e).field()).isEqualTo("context"));
        List<BatchOutcome> batch =
                memories.createBatch(ALICE, TEAM, List.of(draft("fine", null), draft("How?", "Use " + TOKEN)));
        assertThat(batch).extracting(BatchOutcome::ok).containsExactly(true, false);
        assertThat(batch.get(1).error()).isInstanceOf(SecretRejected.class);
        assertThat(((SecretRejected) batch.get(1).error()).field()).isEqualTo("memories[1].context");
        assertThat(store.scan(TEAM, null, 10)).extracting(Memory::content).containsExactly("fine");
        assertThat(search(TOKEN)).filteredOn(c -> c.lexical() > 0).isEmpty();
    }

    @Test
    void aSecretInTheContext_isRedactedUnderRedact_reportedApart_andNeverIndexed() {
        MemoryService memories = service(SecretPolicy.REDACT);
        MemoryService.Saved saved = memories.create(ALICE, TEAM, draft("How do I deploy?", "Use " + TOKEN + " now"));

        assertThat(saved.redactions()).isEmpty();
        assertThat(saved.contextRedactions())
                .singleElement()
                .satisfies(f -> assertThat(f.start()).isEqualTo(4));
        assertThat(saved.memory().context())
                .doesNotContain(TOKEN)
                .startsWith("Use ")
                .endsWith(" now");
        assertThat(store.get(TEAM, saved.memory().id()).orElseThrow().context()).doesNotContain(TOKEN);
        assertThat(search(TOKEN)).filteredOn(c -> c.lexical() > 0).isEmpty();
    }

    @Test
    void aContextStoredBeforeARuleExisted_isRedactedOnRead() {
        Memory old = Memories.memory()
                .id("m1")
                .team(TEAM)
                .user(null)
                .content("How do I deploy?")
                .context("Use " + TOKEN)
                .build();
        store.insertAll(List.of(old));

        Memory read = service(SecretPolicy.REDACT).get(ALICE, TEAM, new Id("m1"));

        assertThat(read.context()).startsWith("Use ").doesNotContain(TOKEN);
        assertThat(read.content()).isEqualTo("How do I deploy?");
    }

    @Test
    void theColdCopy_keepsTheContext_andACopyWrittenBeforeTheFieldStillDecodes() {
        Memory m = Memories.memory().id("m1").team(TEAM).context("the reply").build();
        assertThat(MemoryCodec.decode(MemoryCodec.encode(m))).isEqualTo(m);
        Memory none = Memories.from(m).context(null).build();
        String encoded = MemoryCodec.encode(none);
        assertThat(MemoryCodec.decode(encoded)).isEqualTo(none);
        // the format before the context field: the same fields without the trailing one
        String before = encoded.substring(0, encoded.length() - 1);
        assertThat(MemoryCodec.decode(before)).isEqualTo(none);
    }
}

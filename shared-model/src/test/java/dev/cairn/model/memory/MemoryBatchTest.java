package dev.cairn.model.memory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.model.error.CairnException;
import dev.cairn.model.error.FieldError;
import dev.cairn.model.error.InvalidInput;
import dev.cairn.model.error.StoreUnavailable;
import dev.cairn.model.id.Id;
import dev.cairn.model.identity.Caller;
import dev.cairn.model.index.Indexer;
import dev.cairn.model.port.MemoryStore;
import dev.cairn.model.secret.SecretGate;
import dev.cairn.model.secret.SecretPolicy;
import dev.cairn.model.secret.SecretScanner;
import dev.cairn.model.testkit.HashingEmbedder;
import dev.cairn.model.testkit.InMemoryMemoryStore;
import dev.cairn.model.testkit.InMemoryVectorIndex;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@code POST …/memories:batch} answers for each item what happened to it, including a write the store refused. */
class MemoryBatchTest {

    private static final Id TEAM = new Id("acme");
    private static final Caller ALICE = new Caller(new Id("alice"), Set.of(TEAM));

    private final InMemoryMemoryStore held = new InMemoryMemoryStore();
    private final InMemoryVectorIndex index = new InMemoryVectorIndex();

    /** The store, except that the write of the memory whose content is {@code failing} does not happen (an outage). */
    private MemoryStore failingOn(String failing) {
        return (MemoryStore) Proxy.newProxyInstance(
                MemoryStore.class.getClassLoader(), new Class<?>[] {MemoryStore.class}, (proxy, method, args) -> {
                    if (method.getName().equals("insertEach")) {
                        @SuppressWarnings("unchecked")
                        List<Memory> all = (List<Memory>) args[0];
                        List<Memory> written = new ArrayList<>();
                        Map<Id, CairnException> failed = new java.util.LinkedHashMap<>();
                        for (Memory m : all) {
                            if (m.content().equals(failing)) {
                                failed.put(
                                        m.id(), new StoreUnavailable("the record store", Duration.ofSeconds(2), null));
                            } else {
                                written.add(m);
                            }
                        }
                        held.insertAll(written);
                        return failed;
                    }
                    try {
                        return method.invoke(held, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    private MemoryService serviceOver(MemoryStore store) {
        return new MemoryService(
                store,
                new Indexer(store, index, new HashingEmbedder()),
                Clock.systemUTC(),
                MemoryLimits.DEFAULTS,
                SecretGate.uniform(SecretScanner.bundled(), SecretPolicy.REDACT));
    }

    @Test
    void aWriteTheStoreRefusesInTheMiddle_isReportedForThatItemOnly_andTheOthersAreStoredAndIndexed() {
        MemoryService service = serviceOver(failingOn("second"));
        List<MemoryDraft> drafts = new ArrayList<>();
        for (String text : List.of("first", "second", "third")) {
            drafts.add(new MemoryDraft(text, null, "team", null, null, null, null, null, null));
        }

        List<BatchOutcome> outcomes = service.createBatch(ALICE, TEAM, drafts);

        assertThat(outcomes).extracting(BatchOutcome::ok).containsExactly(true, false, true);
        assertThat(outcomes.get(1).error()).isInstanceOf(StoreUnavailable.class);
        assertThat(outcomes.get(1).memory()).isNull();
        for (int i : new int[] {0, 2}) {
            assertThat(held.get(TEAM, outcomes.get(i).memory().id())).isPresent();
        }
        assertThat(index.liveDocuments()).isEqualTo(2);
    }

    /** A trial found item errors named two ways: binding errors as memories[1].typo, value errors as bare content. */
    @Test
    void anItemsValueError_shouldNameItsFieldAsTheRequestDoes_underItsIndex() {
        MemoryService service = serviceOver(failingOn("never"));
        List<MemoryDraft> drafts = List.of(
                new MemoryDraft("fine", null, "team", null, null, null, null, null, null),
                new MemoryDraft("   ", null, "team", null, null, null, null, null, null));

        List<BatchOutcome> outcomes = service.createBatch(ALICE, TEAM, drafts);

        assertThat(outcomes).extracting(BatchOutcome::ok).containsExactly(true, false);
        assertThat(((InvalidInput) outcomes.get(1).error()).errors())
                .extracting(FieldError::field)
                .containsExactly("memories[1].content");
        assertThat(outcomes.get(1).error().getMessage()).startsWith("memories[1].content ");
    }
}

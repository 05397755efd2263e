package dev.cairn.model.port;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.model.error.VersionConflict;
import dev.cairn.model.id.Id;
import dev.cairn.model.identity.Caller;
import dev.cairn.model.secret.SecretGate;
import dev.cairn.model.secret.SecretPolicy;
import dev.cairn.model.secret.SecretScanner;
import dev.cairn.model.session.ExtractiveSummarizer;
import dev.cairn.model.session.SessionHead;
import dev.cairn.model.session.SessionMessage;
import dev.cairn.model.session.SessionService;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * What every {@link SessionStore} must do, on each real backend and the in-memory fake, each test in a team of its own.
 */
public abstract class SessionStoreContract {

    protected abstract SessionStore store();

    private final Id team =
            new Id("s" + UUID.randomUUID().toString().replace("-", "").substring(0, 12));
    private final Caller alice = new Caller(new Id("alice"), Set.of(team));

    private static SessionMessage message(long seq, String text) {
        return new SessionMessage(
                new Id("m" + seq), seq, SessionMessage.Role.USER, text, Instant.parse("2026-11-30T00:00:00Z"));
    }

    @Test
    void aMessageNumber_shouldBeTakenOnce_andMessagesReadBackInOrder() {
        Id session = new Id("numbers");
        assertThat(store().putMessage(team, session, message(2, "second"))).isTrue();
        assertThat(store().putMessage(team, session, message(1, "first"))).isTrue();
        assertThat(store().putMessage(team, session, message(1, "again"))).isFalse();
        assertThat(store().messages(team, session, 1, 5))
                .extracting(SessionMessage::content)
                .containsExactly("first", "second");
        assertThat(store().messages(team, new Id("other"), 1, 5)).isEmpty();
    }

    @Test
    void theHead_shouldChangeOnlyAtTheExpectedVersion_andKeepItsOwner() {
        Id session = new Id("head");
        SessionHead v1 = new SessionHead(
                team, session, 1, 3, 0, "", 0, false, Instant.parse("2026-11-30T00:00:00Z"), new Id("alice"));
        store().putHead(v1, 0);
        assertThat(store().head(team, session)).contains(v1);
        assertThatThrownBy(() -> store().putHead(v1, 0)).isInstanceOf(VersionConflict.class);
        SessionHead v2 = new SessionHead(team, session, 2, 4, 2, "summary", 1, true, v1.updatedAt(), null);
        assertThatThrownBy(() -> store().putHead(v2, 7)).isInstanceOf(VersionConflict.class);
        store().putHead(v2, 1);
        assertThat(store().head(team, session)).contains(v2);
    }

    @Test
    void eightWriters_appending200Each_shouldLeaveAll1600MessagesAccountedFor() throws Exception {
        // appends only: no extraction, so no extractor, memory service or consolidator
        SessionService sessions = new SessionService(
                store(),
                new ExtractiveSummarizer(),
                null,
                null,
                null,
                SecretGate.uniform(SecretScanner.bundled(), SecretPolicy.REDACT),
                Clock.systemUTC(),
                SessionService.Limits.defaults());
        Id session = new Id("busy");
        int writers = 8;
        int each = 200;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        CountDownLatch go = new CountDownLatch(1);
        Set<String> acknowledged = ConcurrentHashMap.newKeySet();
        List<Future<?>> futures = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            int writer = w;
            futures.add(pool.submit(() -> {
                go.await();
                for (int i = 0; i < each; i++) {
                    acknowledged.add(sessions.append(
                                    alice,
                                    team,
                                    session,
                                    new SessionService.MessageDraft(
                                            "user", "Writer " + writer + " says build " + i + " of Orion passed", null))
                            .messageId()
                            .value());
                }
                return null;
            }));
        }
        go.countDown();
        for (Future<?> f : futures) {
            f.get();
        }
        pool.shutdown();

        SessionHead head = store().head(team, session).orElseThrow();
        List<SessionMessage> all = store().messages(team, session, 1, head.lastSeq());
        assertThat(head.lastSeq()).isEqualTo(writers * each);
        Set<String> stored = new HashSet<>();
        for (int i = 0; i < all.size(); i++) {
            assertThat(all.get(i).seq()).isEqualTo(i + 1);
            stored.add(all.get(i).id().value());
        }
        assertThat(stored).isEqualTo(acknowledged).hasSize(writers * each);
        var view = sessions.get(alice, team, session);
        assertThat(head.foldedThrough() + view.recentMessages().size()).isEqualTo(writers * each);
        assertThat(view.rollingSummary()).contains("Orion");
    }
}

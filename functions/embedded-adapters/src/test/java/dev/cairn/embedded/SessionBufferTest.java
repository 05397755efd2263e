package dev.cairn.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.model.error.InvalidInput;
import dev.cairn.model.id.Id;
import dev.cairn.model.identity.Caller;
import dev.cairn.model.secret.SecretGate;
import dev.cairn.model.secret.SecretPolicy;
import dev.cairn.model.secret.SecretScanner;
import dev.cairn.model.session.ExtractiveSummarizer;
import dev.cairn.model.session.SessionMessage;
import dev.cairn.model.session.SessionService;
import dev.cairn.model.session.SessionService.MessageDraft;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The session buffer on the embedded store: concurrent appends lose nothing, folding keeps every message counted. */
class SessionBufferTest {

    private static final Id TEAM = new Id("acme");
    private static final Caller ALICE = new Caller(new Id("alice"), Set.of(TEAM));

    @TempDir
    Path dir;

    private SessionService service(SqliteSessionStore store) {
        return new SessionService(store, new ExtractiveSummarizer(), null, null, // appends only: no extraction here
                
                SecretGate.uniform(SecretScanner.bundled(), SecretPolicy.REDACT), Clock.systemUTC(),
                SessionService.Limits.defaults());
    }

    @Test
    void eightWriters_appending200Each_shouldLeaveAll1600MessagesAccountedFor() throws Exception {
        try (SqliteSessionStore store = new SqliteSessionStore(dir.resolve("sessions.db"))) {
            SessionService sessions = service(store);
            Id session = new Id("s1");
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
                        var a = sessions.append(ALICE, TEAM, session, new MessageDraft("user",
                                "Writer " + writer + " reports build " + i + " of Orion passed", null));
                        acknowledged.add(a.messageId().value());
                    }
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> f : futures) {
                f.get();
            }
            pool.shutdown();

            var view = sessions.get(ALICE, TEAM, session);
            var head = store.head(TEAM, session).orElseThrow();
            assertThat(acknowledged).hasSize(writers * each);
            assertThat(head.lastSeq()).isEqualTo(writers * each);
            List<SessionMessage> all = store.messages(TEAM, session, 1, head.lastSeq());
            assertThat(all).hasSize(writers * each);
            Set<String> stored = new HashSet<>();
            for (int i = 0; i < all.size(); i++) {
                assertThat(all.get(i).seq()).isEqualTo(i + 1); // no gaps, no duplicates
                stored.add(all.get(i).id().value());
            }
            assertThat(stored).isEqualTo(acknowledged);
            // recent + folded = everything; folding stopped at the threshold
            assertThat(head.foldedThrough() + view.recentMessages().size()).isEqualTo(writers * each);
            assertThat(view.recentMessages().size()).isLessThanOrEqualTo(30);
            assertThat(view.summaryVersion()).isEqualTo(head.foldedThrough() / 15);
            assertThat(view.rollingSummary()).contains("Orion");
        }
    }

    @Test
    void badMessages_shouldBeRefused_andChangeNothing() {
        try (SqliteSessionStore store = new SqliteSessionStore(dir.resolve("sessions.db"))) {
            SessionService sessions = service(store);
            Id session = new Id("s2");
            assertThatThrownBy(() -> sessions.append(ALICE, TEAM, session, new MessageDraft("system", "x", null)))
                    .isInstanceOf(InvalidInput.class).hasMessageContaining("role");
            assertThatThrownBy(() -> sessions.append(ALICE, TEAM, session, new MessageDraft("user", "  ", null)))
                    .isInstanceOf(InvalidInput.class).hasMessageContaining("content");
            assertThat(store.head(TEAM, session)).isEmpty();
            assertThat(store.messages(TEAM, session, 1, 10)).isEmpty();
        }
    }

    @Test
    void aSecretInAMessage_shouldBeStoredRedacted() {
        try (SqliteSessionStore store = new SqliteSessionStore(dir.resolve("sessions.db"))) {
            SessionService sessions = service(store);
            Id session = new Id("s3");
            sessions.append(ALICE, TEAM, session, new MessageDraft("user",
                    "deploy with ghp_R8kLm2Qw9ZxT4vBn6YpJ3sDf7HgK1cAe5UoI please", null));
            assertThat(store.messages(TEAM, session, 1, 1).get(0).content())
                    .isEqualTo("deploy with [REDACTED:github-pat] please");
        }
    }
}

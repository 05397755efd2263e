package dev.cairn.model.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.model.error.InvalidInput;
import dev.cairn.model.id.Id;
import dev.cairn.model.identity.Caller;
import dev.cairn.model.secret.SecretGate;
import dev.cairn.model.secret.SecretPolicy;
import dev.cairn.model.secret.SecretScanner;
import dev.cairn.model.session.SessionService.MessageDraft;
import dev.cairn.model.testkit.InMemorySessionStore;
import java.time.Clock;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The session service's input checks and secret gate, on the in-memory store. Concurrent appends and folding are
 * proven by {@code SessionStoreContract}, on SQLite, dynalite and the fake alike.
 */
class SessionBufferTest {

    private static final Id TEAM = new Id("acme");
    private static final Caller ALICE = new Caller(new Id("alice"), Set.of(TEAM));

    private final InMemorySessionStore store = new InMemorySessionStore();

    private SessionService service() {
        // appends only: no extraction, so no extractor, memory service or consolidator
        return new SessionService(
                store,
                new ExtractiveSummarizer(),
                null,
                null,
                null,
                SecretGate.uniform(SecretScanner.bundled(), SecretPolicy.REDACT),
                Clock.systemUTC(),
                SessionService.Limits.defaults());
    }

    @Test
    void badMessages_shouldBeRefused_andChangeNothing() {
        SessionService sessions = service();
        Id session = new Id("s2");
        assertThatThrownBy(() -> sessions.append(ALICE, TEAM, session, new MessageDraft("system", "x", null)))
                .isInstanceOf(InvalidInput.class)
                .hasMessageContaining("role");
        assertThatThrownBy(() -> sessions.append(ALICE, TEAM, session, new MessageDraft("user", "  ", null)))
                .isInstanceOf(InvalidInput.class)
                .hasMessageContaining("content");
        assertThat(store.head(TEAM, session)).isEmpty();
        assertThat(store.messages(TEAM, session, 1, 10)).isEmpty();
    }

    @Test
    void aSecretInAMessage_shouldBeStoredRedacted() {
        SessionService sessions = service();
        Id session = new Id("s3");
        sessions.append(
                ALICE,
                TEAM,
                session,
                new MessageDraft("user", "deploy with ghp_R8kLm2Qw9ZxT4vBn6YpJ3sDf7HgK1cAe5UoI please", null));
        assertThat(store.messages(TEAM, session, 1, 1).get(0).content())
                .isEqualTo("deploy with [REDACTED:github-pat] please");
    }
}

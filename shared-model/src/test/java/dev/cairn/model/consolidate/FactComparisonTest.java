package dev.cairn.model.consolidate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.model.consolidate.FactComparison.Relation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FactComparisonTest {

    private final FactComparison comparison = new FactComparison(FactComparison.Thresholds.defaults());

    @ParameterizedTest(name = "{0} | {1} → {3}")
    @CsvSource(delimiter = '|', textBlock = """
            We always squash merge pull requests. | we always squash-merge pull requests | 0.98 | DUPLICATE
            I prefer tabs.                        | I prefer tabs                         | 0.20 | DUPLICATE
            We use PostgreSQL 16 for billing.     | We now use PostgreSQL 17 for billing. | 0.95 | CONTRADICTION
            I prefer tabs for indentation.        | I prefer spaces for indentation.      | 0.90 | CONTRADICTION
            My name is Alice.                     | My name is Bob.                       | 0.80 | CONTRADICTION
            We deploy to eu-west-1.               | We deploy to us-east-1.               | 0.90 | CONTRADICTION
            我们使用 PostgreSQL 16。                | 我们现在使用 PostgreSQL 17。             | 0.90 | CONTRADICTION
            我喜欢用 Vim。                           | 我喜欢用 Emacs。                         | 0.85 | CONTRADICTION
            I prefer tabs.                        | I prefer dark mode in the editor.     | 0.70 | DISTINCT
            We use PostgreSQL 16 for billing.     | We use Redis 7 for the session cache. | 0.70 | DISTINCT
            I like coffee.                        | I also like tea.                      | 0.85 | DISTINCT
            我喜欢用 Vim。                           | 我也喜欢用 Emacs。                        | 0.85 | DISTINCT
            We use PostgreSQL 16 for billing.     | We use PostgreSQL 17 for billing.     | 0.65 | DISTINCT
            Billing uses PostgreSQL 16.           | Search uses PostgreSQL 16.            | 0.87 | DISTINCT
            The billing service uses Jenkins for its CI. | The billing service uses GitHub Actions for its CI. | 0.82 | CONTRADICTION
            The billing service uses Jenkins for its CI. | The billing service uses Datadog for its monitoring. | 0.85 | DISTINCT
            We decided to use PostgreSQL 16 for billing. | We now use PostgreSQL 17 for billing. | 0.93 | CONTRADICTION
            We switched to Go 1.23 for the importer.     | We will use Go 1.24 for the importer. | 0.90 | CONTRADICTION
            Loyalty uses eu-central-1 for its region.    | Loyalty uses eu-west-1 for its region. | 0.80 | CONTRADICTION
            我们决定用 MySQL 8 做订单库。                    | 我们决定改用 PostgreSQL 17 做订单库。      | 0.83 | CONTRADICTION
            We use Redis for session caching.     | We use Redis for rate limiting.       | 0.88 | DISTINCT
            We use PostgreSQL 16 for every new service. | We use PostgreSQL 16 for the billing database. | 0.86 | DISTINCT
            We use Redis for caching.             | We use Memcached for caching.         | 0.85 | CONTRADICTION
            """)
    void relate(String a, String b, double similarity, Relation expected) {
        assertThat(comparison.relate(a, b, similarity)).isEqualTo(expected);
    }

    /** Similarities are bge-small-en-v1.5's for the sentences as said. */
    @ParameterizedTest(name = "{0} | {1}")
    @CsvSource(delimiter = '|', textBlock = """
            I always prefer Kotlin over Java for new services. | I now prefer Go instead of Kotlin for new services.   | 0.89
            I prefer Kotlin over Java for new services.        | I would rather use Go than Kotlin for new services these days. | 0.90
            I prefer Kotlin over Java for new services.        | I prefer Go over Kotlin for new services.             | 0.95
            I prefer PostgreSQL for new projects.              | These days I'd rather use SQLite for new projects.    | 0.81
            I prefer React for frontend work.                  | I’d rather use Svelte for frontend work now.          | 0.79
            I prefer Docker Compose for local development.     | Actually I'd rather use Tilt for local development now. | 0.73
            I prefer dark mode in my editor.                   | These days I prefer light mode in my editor.          | 0.92
            I always write tests with JUnit 4.                 | I now write tests with JUnit 5.                       | 0.83
            We always deploy on Tuesdays.                      | From now on we deploy on Thursdays.                   | 0.77
            I usually write commit messages in English.        | These days I write commit messages in German.         | 0.90
            I always use IntelliJ for Java development.        | These days I use Neovim for Java development.         | 0.73
            We prefer REST for public APIs.                    | Going forward we prefer gRPC for public APIs.         | 0.81
            I really prefer light themes in the terminal.      | Honestly, I prefer dark themes in the terminal now.   | 0.94
            I usually prefer Firefox for web debugging.        | Nowadays I prefer Chrome rather than Firefox for web debugging. | 0.89
            I think we use Helm for deployments.               | We now use Kustomize for deployments.                 | 0.72
            We communicate over gRPC.                          | We now communicate over REST.                         | 0.85
            """)
    void aRewordedNewPreferenceForTheSameSubject_shouldContradictTheOld(String old, String fresh, double similarity) {
        assertThat(comparison.relate(old, fresh, similarity)).isEqualTo(Relation.CONTRADICTION);
    }

    /**
     * Sharing "I prefer", a preposition or a value does not make one subject. Similarities are bge-small-en-v1.5's,
     * raised to the floor where they fall under it (on Tuesdays / to eu-west-1: 0.69), so that the words decide.
     */
    @ParameterizedTest(name = "{0} | {1}")
    @CsvSource(delimiter = '|', textBlock = """
            I prefer Kotlin for new services.                  | I prefer tabs for indentation.                        | 0.71
            I always prefer Kotlin over Java for new services. | I now prefer tabs for indentation.                    | 0.66
            I prefer Kotlin over Java for new services.        | I now prefer Go for data pipelines.                   | 0.69
            I prefer Kotlin for new services.                  | These days I'd rather use Python for data analysis.   | 0.64
            We deploy on Tuesdays.                             | We deploy to eu-west-1.                               | 0.90
            We deploy the API on Tuesdays.                     | We deploy the API to eu-west-1.                       | 0.74
            The staging cluster runs in eu-west-1.             | The staging cluster runs on Kubernetes 1.30.          | 0.74
            We always deploy on Tuesdays.                      | We always deploy with a feature flag.                 | 0.75
            I prefer pytest for Python tests.                  | I prefer Jest for JavaScript tests.                   | 0.82
            I prefer Slack for team communication.             | I prefer email for customer communication.            | 0.75
            I prefer Postman for API testing.                  | I prefer Playwright for browser testing.              | 0.77
            I prefer PostgreSQL for new projects.              | I prefer PostgreSQL over MySQL for reporting.         | 0.90
            I prefer Kotlin for new services.                  | I prefer Kotlin for build scripts.                    | 0.91
            We use Helm for deployments.                       | We use Helm in the staging cluster.                   | 0.88
            The team meets on Mondays.                         | The team meets in the Berlin office.                  | 0.77
            """)
    void aPreferenceOrFactAboutAnotherSubject_shouldNotContradict(String old, String fresh, double similarity) {
        assertThat(comparison.relate(old, fresh, similarity)).isNotEqualTo(Relation.CONTRADICTION);
    }

    @ParameterizedTest(name = "{0} | {1}")
    @CsvSource(delimiter = '|', textBlock = """
            I prefer tabs for indentation.                     | Actually, I prefer tabs for indentation.
            We deploy on Tuesdays.                             | We always deploy on Tuesdays.
            I prefer Kotlin for new services.                  | These days I prefer Kotlin for new services.
            I prefer Go for new services.                      | Honestly, I really prefer Go for new services.
            I prefer Go for new services.                      | I think I prefer Go for new services, for now.
            """)
    void aRestatementWithOtherTimeWordsOrHedges_shouldBeARepeat(String old, String fresh) {
        assertThat(comparison.relate(old, fresh, 0.9)).isEqualTo(Relation.DUPLICATE);
    }

    @Test
    void wordsThatChangeWhatHolds_shouldStillCount() {
        assertThat(comparison.relate("We use Jenkins for CI.", "We no longer use Jenkins for CI.", 0.85))
                .isEqualTo(Relation.CONTRADICTION);
        assertThat(comparison.relate("I use Vim.", "I sometimes use Vim.", 0.9)).isEqualTo(Relation.CONTRADICTION);
    }

    /**
     * "I always prefer Kotlin over Java …" / "I now prefer Go …" score 0.69 as said (bge-small-en-v1.5), under the
     * floor; the words alone say "a new value", and their compared texts score 0.78, which the consolidator measures.
     */
    @Test
    void aRewordedNewPreferenceUnderTheFloorAsSaid_shouldContradictByItsComparedWords() {
        String old = "I always prefer Kotlin over Java for new services.";
        String fresh = "These days I'd rather use Go for new services.";
        assertThat(comparison.relate(old, fresh, 0.66)).isEqualTo(Relation.DISTINCT);
        assertThat(comparison.contradictsByWords(old, fresh)).isTrue();
        assertThat(comparison.compared(old)).isEqualTo("i prefer kotlin for new services");
        assertThat(comparison.compared(fresh)).isEqualTo("i prefer go for new services");
        assertThat(comparison.relate(old, fresh, 0.78)).isEqualTo(Relation.CONTRADICTION);
        assertThat(comparison.contradictsByWords(old, "I now prefer tabs for indentation."))
                .isFalse();
        assertThat(comparison.compared("我们现在使用 PostgreSQL 17。")).isEqualTo("我们使用 postgresql 17");
    }
}

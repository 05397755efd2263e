package dev.cairn.model.consolidate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.model.consolidate.FactComparison.Relation;
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
}

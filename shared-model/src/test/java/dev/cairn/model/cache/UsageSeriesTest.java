package dev.cairn.model.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.model.error.InvalidInput;
import dev.cairn.model.error.NotFound;
import dev.cairn.model.id.Id;
import dev.cairn.model.identity.Caller;
import dev.cairn.model.session.SessionAccess;
import dev.cairn.model.testkit.InMemorySessionCacheStore;
import dev.cairn.model.testkit.InMemorySessionStore;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The usage ledger over time: each posted usage lands in the hour it was posted, per model; a series sums hours into
 * hour or day buckets, prices each bucket as the report prices the totals, and its buckets add up to the report.
 */
class UsageSeriesTest {

    private static final Id TEAM = new Id("acme");
    private static final Caller ALICE = new Caller(new Id("alice"), Set.of(TEAM));
    private static final Caller BOB = new Caller(new Id("bob"), Set.of(TEAM));
    private static final Id S = new Id("s1");
    private static final String SONNET = "claude-sonnet-4-5-20250929";
    private static final String HAIKU = "claude-haiku-4-5";

    private Instant now = Instant.parse("2026-11-30T09:15:00Z");
    private final Clock clock = new Clock() {
        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    };
    private final InMemorySessionStore sessions = new InMemorySessionStore();
    private final SessionAccess access = new SessionAccess(sessions, clock);
    private final UsageLedger ledger = new UsageLedger(
            new InMemorySessionCacheStore(),
            access,
            new UsageLedger.Settings(Map.of("claude-sonnet-4-5", new UsageLedger.Price(3, 15)), 1.25, 0.1, 10_000_000),
            clock);

    private void post(String at, String model, long in, long out, long write, long read) {
        now = Instant.parse(at);
        ledger.record(ALICE, TEAM, S, new UsageLedger.UsageDraft(model, in, out, write, read));
    }

    @Test
    void usage_shouldLandInTheHourItWasPosted_perModel_andDaysSumTheirHours() {
        post("2026-11-30T09:15:00Z", SONNET, 300, 400, 2000, 0);
        post("2026-11-30T09:59:59Z", SONNET, 300, 400, 0, 20_000);
        post("2026-11-30T09:30:00Z", HAIKU, 100, 100, 0, 0);
        post("2026-11-30T11:00:00Z", SONNET, 300, 400, 0, 20_000);
        post("2026-12-01T08:00:00Z", SONNET, 300, 400, 0, 20_000);

        UsageLedger.Series hours = ledger.series(ALICE, TEAM, S, UsageLedger.Bucket.HOUR, null, null);
        assertThat(hours.points())
                .extracting(p -> p.start() + " " + p.model() + " " + p.totals().requests())
                .containsExactly(
                        "2026-11-30T09:00:00Z " + HAIKU + " 1",
                        "2026-11-30T09:00:00Z " + SONNET + " 2",
                        "2026-11-30T11:00:00Z " + SONNET + " 1",
                        "2026-12-01T08:00:00Z " + SONNET + " 1");
        assertThat(hours.points().get(1).totals()).isEqualTo(new UsageTotals(2, 600, 800, 2000, 20_000));
        assertThat(hours.points().get(0).cost()).isNull(); // haiku has no price here

        UsageLedger.Series days = ledger.series(ALICE, TEAM, S, UsageLedger.Bucket.DAY, null, null);
        assertThat(days.points())
                .extracting(p -> p.start() + " " + p.model() + " " + p.totals().requests())
                .containsExactly(
                        "2026-11-30T00:00:00Z " + HAIKU + " 1",
                        "2026-11-30T00:00:00Z " + SONNET + " 3",
                        "2026-12-01T00:00:00Z " + SONNET + " 1");

        UsageLedger.Report report = ledger.report(ALICE, TEAM, S);
        UsageTotals sum =
                days.points().stream().map(UsageLedger.Point::totals).reduce(UsageTotals.ZERO, UsageTotals::plus);
        assertThat(sum).isEqualTo(report.totals());
        double saved = days.points().stream()
                .filter(p -> p.cost() != null)
                .mapToDouble(p -> p.cost().saved())
                .sum();
        assertThat(saved).isCloseTo(report.cost().saved(), org.assertj.core.data.Offset.offset(1e-5));
        assertThat(saved).isPositive(); // 60,000 cache-read tokens at a tenth of the input price
    }

    @Test
    void fromAndTo_shouldSelectWholeBuckets_fromInclusive_toExclusive() {
        post("2026-11-30T09:15:00Z", SONNET, 1, 1, 0, 0);
        post("2026-11-30T10:15:00Z", SONNET, 2, 2, 0, 0);
        post("2026-11-30T11:15:00Z", SONNET, 3, 3, 0, 0);

        UsageLedger.Series mid = ledger.series(
                ALICE,
                TEAM,
                S,
                UsageLedger.Bucket.HOUR,
                Instant.parse("2026-11-30T10:40:00Z"),
                Instant.parse("2026-11-30T11:00:00Z"));
        assertThat(mid.from()).isEqualTo(Instant.parse("2026-11-30T10:00:00Z"));
        assertThat(mid.points()).extracting(p -> p.totals().inputTokens()).containsExactly(2L);
    }

    @Test
    void aBadRange_orBucket_shouldBeRefusedWithTheField_andAnotherUsersSessionBeNotFound() {
        post("2026-11-30T09:15:00Z", SONNET, 1, 1, 0, 0);
        Instant t = Instant.parse("2026-11-30T10:00:00Z");
        assertThatThrownBy(() -> ledger.series(ALICE, TEAM, S, UsageLedger.Bucket.HOUR, t, t))
                .isInstanceOf(InvalidInput.class)
                .hasMessageContaining("from must be before to");
        assertThatThrownBy(() -> UsageLedger.Bucket.fromWire("week"))
                .isInstanceOf(InvalidInput.class)
                .hasMessageContaining("bucket must be hour or day (got week)");
        assertThat(UsageLedger.Bucket.fromWire(null)).isEqualTo(UsageLedger.Bucket.HOUR);
        assertThatThrownBy(() -> ledger.series(BOB, TEAM, S, UsageLedger.Bucket.DAY, null, null))
                .isInstanceOf(NotFound.class);
    }
}

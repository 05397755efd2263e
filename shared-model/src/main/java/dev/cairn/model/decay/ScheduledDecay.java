package dev.cairn.model.decay;

import dev.cairn.model.id.Id;
import dev.cairn.model.port.MemoryStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * What the schedule runs: passes of the {@link DecayJob} over every team the store knows, each pass spread over as many
 * invocations as it takes, a new pass at most once per {@code passInterval} (decay is counted in days, and every pass
 * reads every memory: running them back to back would only add cost). The schedule may fire often (hourly): an
 * invocation continues the pass under way, or starts one when the interval has passed, or returns at once.
 *
 * <p>The state lives in the store ({@link MemoryStore#decayCursor()}): {@code P <pass start> [<team>[/<id>]]} while a
 * pass is under way (the team finished last, or where it stopped inside a team), {@code D <pass start>} once it ended.
 * It is saved whenever a team finishes or time runs out, so a crash repeats at most one team's last stretch, which the
 * job's idempotence makes harmless.
 */
public final class ScheduledDecay {

    /**
     * What one invocation did. {@code passEnded}: the pass is complete (or none is due: {@code idle}); otherwise
     * {@code cursor} is where the next invocation continues.
     */
    public record Outcome(
            boolean passEnded,
            boolean idle,
            String cursor,
            int teams,
            long scanned,
            long decayed,
            long archived,
            long deleted) {}

    private static final int TEAM_PAGE = 100;

    /** A page of 200 archivals takes a few seconds against the AWS stores; a minute is ample. */
    static final Duration MARGIN = Duration.ofSeconds(60);

    private final MemoryStore store;
    private final DecayJob job;
    private final Clock clock;
    private final Duration passInterval;

    public ScheduledDecay(MemoryStore store, DecayJob job, Clock clock, Duration passInterval) {
        this.store = store;
        this.job = job;
        this.clock = clock;
        this.passInterval = passInterval;
    }

    /** The state of a pass as stored; {@code team}/{@code after} null when not inside one. */
    record Cursor(boolean done, Instant start, Id team, Id after) {

        static Cursor parse(String s) {
            String[] parts = s == null ? new String[0] : s.split(" ", 3);
            if (parts.length < 2 || !(parts[0].equals("P") || parts[0].equals("D"))) {
                return null; // none yet, or unreadable: a fresh pass is the safe answer
            }
            Instant start;
            try {
                start = Instant.ofEpochSecond(Long.parseLong(parts[1]));
            } catch (NumberFormatException e) {
                return null;
            }
            if (parts[0].equals("D") || parts.length == 2) {
                return new Cursor(parts[0].equals("D"), start, null, null);
            }
            int slash = parts[2].indexOf('/');
            return new Cursor(
                    false,
                    start,
                    new Id(slash < 0 ? parts[2] : parts[2].substring(0, slash)),
                    slash < 0 ? null : new Id(parts[2].substring(slash + 1)));
        }

        String inPass(Id team, Id after) {
            return "P " + start.getEpochSecond() + " " + team.value() + (after == null ? "" : "/" + after.value());
        }
    }

    /**
     * Runs with {@code timeLeft} of an invocation remaining: stops once less than the margin — a minute, or a tenth of
     * {@code timeLeft} when that is under two minutes — is left (on this schedule's clock), for the page in flight and
     * the answer.
     */
    public Outcome run(Duration timeLeft) {
        Instant deadline = clock.instant().plus(timeLeft.minus(marginOf(timeLeft)));
        return run(() -> clock.instant().isAfter(deadline));
    }

    static Duration marginOf(Duration timeLeft) {
        return timeLeft.compareTo(MARGIN.multipliedBy(2)) > 0 ? MARGIN : timeLeft.dividedBy(10);
    }

    /**
     * Continues (or starts) a pass until it ends or {@code timeUp} says to stop; time is checked only after some
     * work, so every invocation makes progress however little time it is given.
     */
    public Outcome run(BooleanSupplier timeUp) {
        Instant now = clock.instant();
        String stored = store.decayCursor().orElse(null);
        Cursor c = Cursor.parse(stored);
        Tally tally = new Tally();
        if (c != null && c.done()) {
            if (now.isBefore(c.start().plus(passInterval))) {
                return new Outcome(true, true, stored, 0, 0, 0, 0, 0);
            }
            c = null;
        }
        if (c == null) {
            c = new Cursor(false, now, null, null);
            tally.save(store, "P " + now.getEpochSecond());
        }
        Id lastTeam = c.team();
        if (c.after() != null) {
            // finish the team the last invocation was in the middle of
            DecayJob.Progress p = job.run(c.team(), c.after(), timeUp);
            tally.add(p);
            if (p.resumeAfter() != null) {
                return tally.stopped(store, c.inPass(c.team(), p.resumeAfter()));
            }
            tally.save(store, c.inPass(c.team(), null));
        }
        while (true) {
            List<Id> teams = store.teams(lastTeam, TEAM_PAGE);
            if (teams.isEmpty()) {
                tally.save(store, "D " + c.start().getEpochSecond());
                return tally.outcome(true, tally.saved);
            }
            for (Id team : teams) {
                if (tally.worked() && timeUp.getAsBoolean()) {
                    return tally.outcome(false, tally.saved);
                }
                DecayJob.Progress p = job.run(team, null, timeUp);
                tally.add(p);
                if (p.resumeAfter() != null) {
                    return tally.stopped(store, c.inPass(team, p.resumeAfter()));
                }
                tally.save(store, c.inPass(team, null));
                lastTeam = team;
            }
        }
    }

    private static final class Tally {
        int teams;
        long scanned;
        long decayed;
        long archived;
        long deleted;
        /** The cursor this invocation saved last (null: none yet). */
        String saved;

        void save(MemoryStore store, String cursor) {
            store.saveDecayCursor(cursor);
            saved = cursor;
        }

        boolean worked() {
            return scanned > 0 || teams > 0;
        }

        void add(DecayJob.Progress p) {
            teams += p.resumeAfter() == null ? 1 : 0;
            scanned += p.scanned();
            decayed += p.decayed();
            archived += p.archived();
            deleted += p.deleted();
        }

        Outcome stopped(MemoryStore store, String cursor) {
            save(store, cursor);
            return outcome(false, cursor);
        }

        Outcome outcome(boolean ended, String cursor) {
            return new Outcome(ended, false, cursor, teams, scanned, decayed, archived, deleted);
        }
    }
}

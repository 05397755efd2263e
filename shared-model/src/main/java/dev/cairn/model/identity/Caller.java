package dev.cairn.model.identity;

import dev.cairn.model.error.TeamAccessDenied;
import dev.cairn.model.id.Id;
import java.util.Set;

/**
 * Who is calling, as proven by a verified token: the user ({@code sub}) and the teams ({@code teams} claim). The
 * request body never chooses the tenant; only this does.
 */
public record Caller(Id user, Set<Id> teams) {

    public Caller {
        teams = Set.copyOf(teams);
    }

    /** Returns the team when the caller belongs to it, else throws {@link TeamAccessDenied}. */
    public Id requireMember(Id team) {
        if (!teams.contains(team)) {
            throw new TeamAccessDenied(team.value());
        }
        return team;
    }
}

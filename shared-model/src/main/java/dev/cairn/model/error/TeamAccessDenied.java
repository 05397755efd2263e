package dev.cairn.model.error;

/** The caller's token does not list the team in the path. */
public class TeamAccessDenied extends CairnException {

    public TeamAccessDenied(String team) {
        super("your token does not grant access to team '" + team + "'");
    }

    @Override
    public String kind() {
        return "forbidden";
    }

    @Override
    public String title() {
        return "Forbidden";
    }
}

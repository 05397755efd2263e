package dev.cairn.model.session;

import dev.cairn.model.error.CairnException;

/** The session was ended; it takes no more messages (start a new session). */
public class SessionEnded extends CairnException {

    public SessionEnded(String session) {
        super("session " + session + " has ended and takes no more messages; start a new session id");
    }

    @Override
    public String kind() {
        return "session-ended";
    }

    @Override
    public String title() {
        return "Session ended";
    }
}

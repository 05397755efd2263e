package dev.cairn.model.session;

import dev.cairn.model.error.CairnException;

/** A session asked to be created with a visibility it was not created with: visibility is fixed at creation. */
public class SessionExists extends CairnException {

    public SessionExists(String session, SessionAccess.Visibility actual) {
        super("session '" + session + "' already exists as a " + actual.wire() + " session; visibility is chosen "
                + "when a session is created, before anything is written to it");
    }

    @Override
    public String kind() {
        return "session-exists";
    }

    @Override
    public String title() {
        return "Session already exists";
    }
}

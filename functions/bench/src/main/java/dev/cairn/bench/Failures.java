package dev.cairn.bench;

/** How a bench command fails: it says what failed and why, cause by cause, on stderr, and exits non-zero. */
final class Failures {

    private Failures() {}

    static int report(String command, Exception e) {
        System.err.println(command + " failed: " + e);
        for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
            System.err.println("  caused by: " + c);
        }
        return 1;
    }
}

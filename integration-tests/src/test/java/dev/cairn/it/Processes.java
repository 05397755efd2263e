package dev.cairn.it;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.concurrent.TimeUnit;

/** What every stand-in process of the test run needs: a free port, the running JVM's java, a clean stop. */
final class Processes {

    private Processes() {}

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    static String java() {
        return ProcessHandle.current().info().command().orElse("java");
    }

    /** Asks the process to stop, and kills it if it has not stopped within {@code seconds}. */
    static void stop(Process process, int seconds) throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        }
    }
}

package dev.cairn.it;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A size-limited filesystem (tmpfs) for a server's data directory, so a test can fill it for real (ENOSPC from the
 * kernel, not an injected exception) and free it again.
 *
 * <p>Two ways to get one: as root, {@code mount -t tmpfs} on a directory of the test's work tree ({@link #close}
 * unmounts it); otherwise {@code unshare -rm} (a user and mount namespace) around the server's own command, which
 * mounts the tmpfs inside the namespace only: the mount ends with the server, and the test reaches the files through
 * {@code /proc/<server pid>/root/}. Where neither works the test is skipped, saying why.
 */
final class SmallDisk implements AutoCloseable {

    private final Path dir;
    private final String script;
    private final String nested;
    private final boolean mountedHere;
    private long serverPid = -1;

    private SmallDisk(Path dir, String script, String nested, boolean mountedHere) {
        this.dir = dir;
        this.script = script;
        this.nested = nested;
        this.mountedHere = mountedHere;
    }

    /**
     * A tmpfs of {@code size} (as mount's {@code size=} option, e.g. {@code 8m}) at a new directory under
     * {@code parent}, and a second one of {@code nestedSize} at its sub-directory {@code nested}, so that one part of
     * the data directory can be filled while the rest still has room; {@code null} with the reason in {@code why}
     * when this machine allows neither way. {@code cairn.it.small-disk=unshare} forces the namespace way (to test it
     * where root could mount).
     */
    static SmallDisk create(Path parent, String size, String nested, String nestedSize, StringBuilder why)
            throws Exception {
        Path dir = Files.createTempDirectory(parent.toAbsolutePath(), "small-disk-");
        // "$0" is the directory: sh -c passes its first argument after the script as $0
        String script = "mount -t tmpfs -o size=" + size + " tmpfs \"$0\" && mkdir \"$0/" + nested
                + "\" && mount -t tmpfs -o size=" + nestedSize + " tmpfs \"$0/" + nested + "\"";
        boolean forceUnshare = "unshare".equals(System.getProperty("cairn.it.small-disk"));
        if (!forceUnshare) {
            Result mount = run(List.of("sh", "-c", script, dir.toString()));
            if (mount.ok()) {
                return new SmallDisk(dir, script, nested, true);
            }
            unmount(dir.resolve(nested));
            unmount(dir);
            why.append("mount -t tmpfs failed (").append(mount.output()).append("); ");
        }
        Result unshare = run(List.of("unshare", "-rm", "sh", "-c", script, dir.toString()));
        if (unshare.ok()) {
            return new SmallDisk(dir, script, nested, false);
        }
        why.append("unshare -rm with a tmpfs mount failed (")
                .append(unshare.output())
                .append(")");
        Files.deleteIfExists(dir);
        return null;
    }

    /** The data directory as the server sees it. */
    Path serverPath() {
        return dir;
    }

    /** The command the server must run under: nothing when mounted here, the namespace and its mounts otherwise. */
    List<String> serverCommandPrefix() {
        if (mountedHere) {
            return List.of();
        }
        // exec: the server replaces the shell, so the process's pid is the server's (for /proc/<pid>/root)
        return List.of("unshare", "-rm", "sh", "-c", script + " && exec \"$@\"", dir.toString());
    }

    /** Where this test process reaches the data directory: the directory itself, or through the server's root. */
    Path testPath() {
        if (mountedHere) {
            return dir;
        }
        if (serverPid < 0) {
            throw new IllegalStateException("the namespace's tmpfs exists only while the server runs");
        }
        return Path.of("/proc/" + serverPid + "/root").resolve(dir.toString().substring(1));
    }

    void serverStarted(long pid) {
        this.serverPid = pid;
    }

    String how() {
        return mountedHere ? "tmpfs mounted by root" : "tmpfs in the server's own mount namespace (unshare -rm)";
    }

    /**
     * Writes a ballast file until the filesystem refuses another byte (ENOSPC), and returns its size. The filesystem
     * is then full for everyone writing to it: the server's next write that needs a new block fails.
     */
    long fill(Path ballast) throws IOException {
        long written = 0;
        try (FileChannel out = FileChannel.open(ballast, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            // large writes first, then page-sized ones for the last partial chunk: afterwards not one page is free
            for (int chunk : new int[] {1 << 20, 4096}) {
                ByteBuffer buffer = ByteBuffer.allocate(chunk);
                try {
                    while (true) {
                        buffer.clear();
                        written += out.write(buffer, written);
                    }
                } catch (IOException full) {
                    if (!String.valueOf(full.getMessage()).contains("No space left")) {
                        throw full;
                    }
                }
            }
        }
        return written;
    }

    /** Unmounts (when mounted here) and removes the mount point; also after a failed test, so nothing is left. */
    @Override
    public void close() throws Exception {
        if (mountedHere) {
            unmount(dir.resolve(nested));
            unmount(dir);
            if (mounted(dir) || mounted(dir.resolve(nested))) {
                throw new IllegalStateException("cannot unmount the test's tmpfs at " + dir);
            }
        }
        try (var leftovers = Files.walk(dir)) {
            for (Path p : leftovers.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    private static void unmount(Path p) throws Exception {
        if (mounted(p) && !run(List.of("umount", p.toString())).ok()) {
            // a process still holding a file open: detach now, the kernel frees it when the last file closes
            run(List.of("umount", "-l", p.toString()));
        }
    }

    /** Whether {@code dir} is a mount point now (for the test's own check that nothing is left behind). */
    static boolean mounted(Path dir) throws IOException {
        String target = dir.toAbsolutePath().normalize().toString();
        for (String line : Files.readAllLines(Path.of("/proc/self/mounts"))) {
            String[] f = line.split(" ");
            if (f.length > 1 && f[1].equals(target)) {
                return true;
            }
        }
        return false;
    }

    private record Result(boolean ok, String output) {}

    private static Result run(List<String> cmd) throws InterruptedException {
        try {
            Process p = new ProcessBuilder(new ArrayList<>(cmd))
                    .redirectErrorStream(true)
                    .start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new Result(false, String.join(" ", cmd) + " did not finish");
            }
            return new Result(p.exitValue() == 0, out.isEmpty() ? "exit " + p.exitValue() : out);
        } catch (IOException e) {
            return new Result(false, e.getMessage());
        }
    }
}

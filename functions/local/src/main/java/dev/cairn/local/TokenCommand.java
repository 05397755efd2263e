package dev.cairn.local;

import dev.cairn.model.id.Id;
import io.smallrye.jwt.build.Jwt;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * {@code token --user alice --team acme [--team beta] [--days 30] [--data-dir DIR]}: prints a JWT signed with the
 * local key and exits. Ids are checked with the same grammar the server applies, so a token is never minted for a
 * user or team the server would refuse.
 */
final class TokenCommand {

    private TokenCommand() {}

    static final List<String> OPTIONS = List.of("--user", "--team", "--days", "--data-dir");
    static final String USAGE = """
            usage: token --user USER [--team TEAM ...] [--days N] [--data-dir DIR]
            Prints a JWT for USER and the given teams, signed with the local key the server verifies with (created in
            DIR/keys/ on first use). Says on stderr which directory's key signed it: a server started with another
            data directory answers such a token 401. Does not start the server.
              --user USER     the token's subject (required)
              --team TEAM     a team the token grants; repeat for more (default none)
              --days N        days until it expires, 1 to 3650 (default 30)
              --data-dir DIR  the server's data directory (default cairn.data-dir, else ./cairn-data)
            example: java -jar functions/local/target/quarkus-app/quarkus-run.jar token --user alice --team acme
            """;

    /** {@code defaultDataDir} is asked only when a token is minted without {@code --data-dir}. */
    static int run(List<String> args, Supplier<Path> defaultDataDir, PrintStream out, PrintStream err) {
        if (args.contains("--help") || args.contains("-h")) {
            out.print(USAGE);
            return 0;
        }
        String user = null;
        List<String> teams = new ArrayList<>();
        long days = 30;
        Path dataDir = null;
        try {
            for (int i = 0; i < args.size(); i++) {
                String a = args.get(i);
                String value = i + 1 < args.size() ? args.get(i + 1) : null;
                switch (a) {
                    case "--user" -> user = required(a, value);
                    case "--team" -> teams.add(required(a, value));
                    case "--days" -> days = days(required(a, value));
                    case "--data-dir" -> dataDir = Path.of(required(a, value));
                    default -> throw new IllegalArgumentException("unknown option " + a);
                }
                i++;
            }
            if (user == null) {
                throw new IllegalArgumentException("--user is required");
            }
            if (days < 1 || days > 3650) {
                throw new IllegalArgumentException("--days must be between 1 and 3650");
            }
            idOf("--user", user);
            for (String t : teams) {
                idOf("--team", t);
            }
        } catch (IllegalArgumentException e) {
            err.println("token: " + e.getMessage());
            err.print(USAGE);
            return 2;
        }
        Path dir = (dataDir != null ? dataDir : defaultDataDir.get())
                .toAbsolutePath()
                .normalize();
        boolean existed = Files.exists(dir.resolve("keys").resolve("jwt-private.pem"));
        String jwt;
        try {
            jwt = mint(dir, user, teams, Duration.ofDays(days));
        } catch (RuntimeException e) { // unreadable, unwritable or damaged key files: one line, not a stack trace
            err.println("token: " + e.getMessage() + (e.getCause() == null ? "" : " (" + e.getCause() + ")"));
            return 1;
        }
        err.println(
                existed
                        ? "token: signed with the key in " + dir.resolve("keys")
                        : "token: no key in " + dir + " yet: created one in " + dir.resolve("keys")
                                + "; a server started " + "with another data directory will refuse this token (401)");
        out.println(jwt);
        return 0;
    }

    /** A JWT for {@code user} and {@code teams}, signed with the key in {@code dataDir} (created on first use). */
    static String mint(Path dataDir, String user, List<String> teams, Duration lifetime) {
        LocalSigningKeys keys = LocalSigningKeys.loadOrCreate(dataDir);
        return Jwt.issuer(LocalSigningKeys.ISSUER)
                .subject(user)
                .claim("teams", teams)
                .expiresIn(lifetime)
                .jws()
                .keyId("cairn-local")
                .sign(keys.privateKey());
    }

    /** An id the server would accept, else a usage error that says which option and why. */
    private static void idOf(String option, String value) {
        String problem = Id.problemWith(value);
        if (problem != null) {
            throw new IllegalArgumentException(
                    option + " " + value + ": " + problem + " (ids match ^[a-z0-9][a-z0-9_-]{0,63}$)");
        }
    }

    private static long days(String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--days needs a whole number, not " + value);
        }
    }

    private static String required(String option, String value) {
        if (value == null || value.startsWith("--")) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return value;
    }
}

package dev.cairn.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;

/**
 * The local server's token signing key pair, kept in {@code <data-dir>/keys/} and created on first use. The server
 * verifies with the public half; the {@code token} command signs with the private half. Creation is race-free: the
 * pair is written to a temporary directory and moved into place atomically, and whoever loses the race reads the
 * winner's pair.
 */
public final class LocalSigningKeys {

    public static final String ISSUER = "cairn-local";

    private final PrivateKey privateKey;
    private final PublicKey publicKey;

    private LocalSigningKeys(PrivateKey privateKey, PublicKey publicKey) {
        this.privateKey = privateKey;
        this.publicKey = publicKey;
    }

    public PrivateKey privateKey() {
        return privateKey;
    }

    public PublicKey publicKey() {
        return publicKey;
    }

    public static LocalSigningKeys loadOrCreate(Path dataDir) {
        Path dir = dataDir.resolve("keys");
        try {
            if (!Files.exists(dir.resolve("jwt-private.pem"))) {
                create(dataDir, dir);
            }
            return read(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or create the token signing keys in " + dir, e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(
                    "the token signing keys in " + dir + " are damaged; delete the folder "
                            + "to make new ones (tokens issued before stop working)",
                    e);
        }
    }

    private static void create(Path dataDir, Path dir) throws IOException, GeneralSecurityException {
        Files.createDirectories(dataDir);
        KeyPairGenerator gen = KeyPairGenerator.getInstance("RSA");
        gen.initialize(2048);
        KeyPair pair = gen.generateKeyPair();
        Path tmp = Files.createTempDirectory(dataDir, ".keys-");
        try {
            Path priv = tmp.resolve("jwt-private.pem");
            Files.writeString(priv, pem("PRIVATE KEY", pair.getPrivate().getEncoded()), StandardCharsets.US_ASCII);
            trySetOwnerOnly(priv);
            Files.writeString(
                    tmp.resolve("jwt-public.pem"),
                    pem("PUBLIC KEY", pair.getPublic().getEncoded()),
                    StandardCharsets.US_ASCII);
            try {
                Files.move(tmp, dir, StandardCopyOption.ATOMIC_MOVE);
            } catch (FileAlreadyExistsException | AtomicMoveNotSupportedException e) {
                // another process created the keys first: use theirs
            } catch (IOException e) {
                if (!Files.exists(dir.resolve("jwt-private.pem"))) {
                    throw e;
                }
            }
        } finally {
            if (Files.exists(tmp)) {
                try (var files = Files.list(tmp)) {
                    for (Path f : files.toList()) {
                        Files.deleteIfExists(f);
                    }
                }
                Files.deleteIfExists(tmp);
            }
        }
    }

    private static void trySetOwnerOnly(Path file) throws IOException {
        try {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system (Windows): the data directory's own permissions apply
        }
    }

    private static LocalSigningKeys read(Path dir) throws IOException, GeneralSecurityException {
        KeyFactory rsa = KeyFactory.getInstance("RSA");
        PrivateKey priv = rsa.generatePrivate(new PKCS8EncodedKeySpec(unpem(dir.resolve("jwt-private.pem"))));
        PublicKey pub = rsa.generatePublic(new X509EncodedKeySpec(unpem(dir.resolve("jwt-public.pem"))));
        return new LocalSigningKeys(priv, pub);
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der) + "\n-----END " + type + "-----\n";
    }

    private static byte[] unpem(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.US_ASCII);
        return Base64.getMimeDecoder().decode(text.replaceAll("-----[A-Z ]+-----", ""));
    }
}

package dev.cairn.infra;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * The deployment package used for a function whose build output is absent: a zip with one README, written once per
 * JVM with a fixed timestamp so its asset hash (and so the template) is the same on every synth.
 */
final class Placeholder {

    private static Path zip;

    private Placeholder() {}

    static synchronized Path zip() {
        if (zip != null) {
            return zip;
        }
        try {
            Path dir = Files.createTempDirectory("cairn-placeholder");
            Path file = dir.resolve("function.zip");
            try (OutputStream out = Files.newOutputStream(file);
                    ZipOutputStream z = new ZipOutputStream(out)) {
                ZipEntry e = new ZipEntry("README.txt");
                e.setLastModifiedTime(FileTime.fromMillis(0));
                z.putNextEntry(e);
                z.write(("Placeholder: build the functions (./mvnw package) before cdk deploy; this package "
                                + "cannot serve requests.\n")
                        .getBytes(StandardCharsets.UTF_8));
                z.closeEntry();
            }
            zip = file;
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the placeholder function package", e);
        }
    }
}

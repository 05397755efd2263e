package dev.cairn.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.model.secret.SecretScanner;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RealTextScanTest {

    @TempDir
    Path dir;

    @Test
    void aDirectoryIsReadAsItsUtf8Files_binariesAndOtherEncodingsAreLeftOut() throws Exception {
        Files.writeString(dir.resolve("notes.md"), "plain notes", StandardCharsets.UTF_8);
        Files.write(dir.resolve("latin1.txt"), new byte[] {'c', 'a', 'f', (byte) 0xE9});
        Files.write(dir.resolve("blob.bin"), new byte[] {(byte) 0xFF, (byte) 0xFE, 0, 1});

        assertThat(RealTextScan.load(dir)).extracting(RealTextScan.Text::text).containsExactly("plain notes");
    }

    @Test
    void aFindingIsPrintedInContextWithItsValueCut_soARealSecretIsNotRepeated() throws Exception {
        String key = "ghp_wIl9DV4WTFuq1vq3ozrKT4AqNG5vp2PV9o5Y";
        Files.writeString(dir.resolve("leak.txt"), "the deploy token is " + key + " for now", StandardCharsets.UTF_8);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        RealTextScan.report(
                dir, SecretScanner.bundled(), null, 20, new PrintStream(bytes, true, StandardCharsets.UTF_8));

        String out = bytes.toString(StandardCharsets.UTF_8);
        assertThat(out).contains("real text: 1 files").contains("github-pat").contains("⟦ghp_…⟧ for now");
        assertThat(out).doesNotContain(key);
    }

    @Test
    void withABaseline_onlyTheFindingsItDidNotMakeAreShownAsNew() throws Exception {
        Files.writeString(
                dir.resolve("leak.txt"), "token ghp_wIl9DV4WTFuq1vq3ozrKT4AqNG5vp2PV9o5Y\n", StandardCharsets.UTF_8);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        SecretScanner same = SecretScanner.bundled();
        RealTextScan.report(dir, same, same, 20, new PrintStream(bytes, true, StandardCharsets.UTF_8));

        String out = bytes.toString(StandardCharsets.UTF_8);
        assertThat(out)
                .contains("not made by the baseline rules: 0")
                .doesNotContain("new finding:")
                .contains("ratio");
    }
}

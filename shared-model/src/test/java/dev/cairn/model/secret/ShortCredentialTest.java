package dev.cairn.model.secret;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Short passwords and PINs stated in prose after an explicit cue (password, passwd, pwd, passphrase, PIN, 密码, 口令),
 * found in a new user's trial: "passwd hunter2!" and "my bank PIN: 0942" went through to memory. The values are short
 * (four digits for a PIN, six characters for a password), so the cue and the value's shape carry the decision, and
 * ordinary sentences about passwords and PINs must stay unflagged.
 *
 * <p>Placeholders are not secrets: {@code <redacted>}, asterisks, {@code ${VAR}} and a bare {@code changeme} (the
 * conventional "replace me" value of templates and docs, in any case). A password that merely contains it
 * ({@code changeme123}) is someone's password and is found.
 */
class ShortCredentialTest {

    private static final SecretScanner SCANNER = SecretScanner.bundled();

    private static Finding onlyFinding(String text, String secret) {
        return OnlyFinding.in(SCANNER, text, secret);
    }

    @Test
    void aShortPasswordAfterAnExplicitCue_shouldBeFound_asAPassword() {
        Map<String, String> cases = Map.ofEntries(
                Map.entry("passwd hunter2!", "hunter2!"),
                Map.entry("my password is hunter2", "hunter2"),
                Map.entry("the wifi password: sunflower77", "sunflower77"),
                Map.entry("wifi password sunflower77", "sunflower77"),
                Map.entry("my password's hunter2", "hunter2"),
                Map.entry("login admin / password hunter2", "hunter2"),
                Map.entry("the router passphrase tiger7!x", "tiger7!x"),
                Map.entry("pwd qw#rty", "qw#rty"),
                Map.entry("记住：password va6iTGbgug=kvzWtlh 只在测试环境用", "va6iTGbgug=kvzWtlh"),
                Map.entry("密码是 abc123", "abc123"),
                Map.entry("银行卡密码 839201", "839201"),
                Map.entry("我的口令是 abc123", "abc123"));
        cases.forEach((text, secret) -> {
            Finding f = onlyFinding(text, secret);
            assertThat(f.ruleId()).as(text).contains("password");
        });
    }

    @Test
    void aPinStatedInProse_shouldBeFound_asAPin() {
        Map<String, String> cases = Map.ofEntries(
                Map.entry("PIN is 4821", "4821"),
                Map.entry("my bank PIN: 0942", "0942"),
                Map.entry("the PIN for my phone is 4821", "4821"),
                Map.entry("my PIN number is 738291", "738291"),
                Map.entry("I changed my PIN to 5093", "5093"),
                Map.entry("my ATM PIN is 5093.", "5093"),
                Map.entry("SIM PIN 4821", "4821"),
                Map.entry("Pin: 4821", "4821"),
                Map.entry("PIN码是 4821", "4821"),
                Map.entry("pin码：4821", "4821"));
        cases.forEach((text, secret) -> {
            Finding f = onlyFinding(text, secret);
            assertThat(f.ruleId()).as(text).isEqualTo("prose-pin");
        });
    }

    @Test
    void ordinaryProseAboutPasswordsAndPins_shouldNotBeFlagged() {
        for (String text : List.of(
                "the password is stored in Vault",
                "password is required",
                "reset your password",
                "password policy is 12 characters",
                "PIN code field",
                "the password is in 1Password",
                "密码是必填项",
                "密码已经重置",
                "my password is incorrect",
                "password reset at 10:30",
                "password changed on 2026-11-30",
                "the password's 12-character minimum",
                "password protected files",
                "Failed password for root from 10.0.0.1 port 22 ssh2",
                "hash the password with argon2id",
                "password sha256",
                "password VARCHAR2(100) NOT NULL",
                "password v1.2.3 release",
                "PBKDF2 with password 600000 rounds",
                "the PIN must be 4 digits",
                "your PIN is 4 to 6 digits",
                "PIN lock after 5 attempts",
                "enter your PIN",
                "the PIN is required",
                "PIN 2024 edition")) {
            assertThat(SCANNER.scan(text)).as(text).isEmpty();
        }
    }

    @Test
    void commandsAndPinsOfHardware_shouldNotBeFlagged() {
        for (String text : List.of(
                "passwd alice",
                "sudo passwd user01",
                "passwd -l root",
                "cat /etc/passwd",
                "ftp.login() # user anonymous, passwd anonymous@",
                "pwd #print working dir",
                "cd $(pwd)/build",
                "GPIO pin 17",
                "GPIO pin 2048",
                "the pin is 13",
                "LED_PIN = 13",
                "pin the version to 4.2.1",
                "spinning 4821 times")) {
            assertThat(SCANNER.scan(text)).as(text).isEmpty();
        }
    }

    @Test
    void placeholders_shouldNotBeFlagged_butAPasswordContainingChangeme_should() {
        for (String text : List.of(
                "password is <redacted>",
                "password: ***",
                "password ********",
                "PIN: ****",
                "PIN is 0000",
                "password: ${DB_PASSWORD}",
                "the password is changeme",
                "the password is ChangeMe.",
                "password: CHANGEME",
                "password your_password_here")) {
            assertThat(SCANNER.scan(text)).as(text).isEmpty();
        }
        onlyFinding("The root password on the build box is changeme123.", "changeme123.");
    }

    @Test
    void aRedactedText_shouldNotBeFlaggedAgain() {
        for (String text :
                List.of("passwd hunter2!", "my password's hunter2", "PIN is 4821", "my bank PIN: 0942", "PIN码是 4821")) {
            String redacted = SecretScanner.redact(text, SCANNER.scan(text));
            assertThat(redacted).as(text).contains("[REDACTED:");
            assertThat(SCANNER.scan(redacted)).as(redacted).isEmpty();
        }
    }
}

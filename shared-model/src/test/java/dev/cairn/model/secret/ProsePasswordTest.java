package dev.cairn.model.secret;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Passwords and PINs that a new user's trial stated in plain words and that went through to memory: a password that
 * is a lower-case word ("my password is sunflower"), letters and digits after passwd with no symbol ("passwd
 * hunter2"), and a PIN after a lower-case "pin" ("pin 4821"). Each is caught only right after an explicit naming, and
 * only where the value ends its clause: the sentences people write about passwords and pins ("the password is stored
 * in Vault", "pin the version", "passwd file") name the same things and must stay unflagged.
 */
class ProsePasswordTest {

    private static final SecretScanner SCANNER = SecretScanner.bundled();

    /**
     * The text's only finding is {@code secret}, by {@code ruleId}, and its redaction replaces just that value (shared
     * with the tests of the other plain-word and code rules).
     */
    static void assertFoundAndRedacted(String text, String secret, String ruleId) {
        Finding f = OnlyFinding.in(SCANNER, text, secret);
        assertThat(f.ruleId()).as(text).isEqualTo(ruleId);
        String redacted = SecretScanner.redact(text, List.of(f));
        assertThat(redacted).as(text).isEqualTo(text.replace(secret, "[REDACTED:" + ruleId + "]"));
        assertThat(SCANNER.scan(redacted)).as(redacted).isEmpty();
    }

    /** No text of the list gives a finding (shared with the tests of the other plain-word and code rules). */
    static void assertNoneFlagged(List<String> texts) {
        for (String text : texts) {
            assertThat(SCANNER.scan(text)).as(text).isEmpty();
        }
    }

    @Test
    void aPlainWordPasswordAfterAnExplicitNaming_shouldBeFound_andRedactedAsAPlainWordPassword() {
        Map<String, String> cases = Map.ofEntries(
                Map.entry("my password is sunflower", "sunflower"),
                Map.entry("remember that my password is sunflower", "sunflower"),
                Map.entry("the password is sunflower.", "sunflower"),
                Map.entry("my password was sunflower, I think", "sunflower"),
                Map.entry("password: sunflower", "sunflower"),
                Map.entry("Password: sunflower", "sunflower"),
                Map.entry("the password for the router is sunflower", "sunflower"),
                Map.entry("my email password is bluebird", "bluebird"),
                Map.entry("my passwd is sunflower", "sunflower"),
                Map.entry("the passphrase is \"sunflower\"", "sunflower"),
                Map.entry("password = 'sunflower'", "sunflower"),
                Map.entry("the wifi password is sunflower - don't share it", "sunflower"),
                Map.entry("my password is sunflower and I keep forgetting it", "sunflower"),
                Map.entry("我的密码是 sunflower", "sunflower"),
                Map.entry("我的密码是sunflower，别告诉别人", "sunflower"));
        cases.forEach((text, secret) -> assertFoundAndRedacted(text, secret, "prose-password-word"));
    }

    @Test
    void aPasswordWithADigitOrCapital_shouldStayWithTheRulesThatAlreadyFoundIt() {
        // the plain-word rule takes lower-case words only, so these keep their findings and redactions as before
        assertFoundAndRedacted("the wifi password is bluebird42", "bluebird42", "prose-password-en");
        assertFoundAndRedacted("my password is Sunflower", "Sunflower", "prose-password-en");
        assertFoundAndRedacted("my password is sunflower!", "sunflower!", "prose-password-en");
        assertFoundAndRedacted("密码：hunter2", "hunter2", "prose-password-zh");
        assertFoundAndRedacted("银行卡密码 482193", "482193", "prose-password-zh");
        assertFoundAndRedacted("passwd hunter2!", "hunter2!", "prose-password-bare-en");
    }

    @Test
    void lettersThenDigitsAfterPasswd_shouldBeFound_asAPassword() {
        assertFoundAndRedacted("passwd hunter2", "hunter2", "prose-passwd-letters-digits");
        assertFoundAndRedacted("wifi passwd bluebird42, don't share it", "bluebird42", "prose-passwd-letters-digits");
        assertFoundAndRedacted("the router passwd tiger77.", "tiger77", "prose-passwd-letters-digits");
    }

    @Test
    void aPinAfterALowerCasePinOrPinCode_shouldBeFound_asAPin() {
        assertFoundAndRedacted("pin 4821", "4821", "prose-pin-lower");
        assertFoundAndRedacted("my bank card pin 482193.", "482193", "prose-pin-lower");
        assertFoundAndRedacted("pin code 4821", "4821", "prose-pin-lower");
        assertFoundAndRedacted("PIN code 4821", "4821", "prose-pin-lower");
        assertFoundAndRedacted("the door pin number 90210, thanks", "90210", "prose-pin-lower");
        // already found before, by the rule for PIN in capitals and for pin with a verb
        assertFoundAndRedacted("my pin is 4821", "4821", "prose-pin");
        assertFoundAndRedacted("PIN 4821", "4821", "prose-pin");
    }

    /**
     * A stored redaction is scanned again (edits, sync): the rule id in its marker is not a secret, however the words
     * before it read ("the password for the router is" let prose-credential-set-en reach the marker's colon).
     */
    @Test
    void aRedactionMarkerAfterAPasswordName_shouldNotBeFlaggedAgain() {
        assertNoneFlagged(List.of(
                "the password for the router is [REDACTED:prose-password-word]",
                "the password for the router is [REDACTED:prose-password-en]",
                "the secret for the app is [REDACTED:generic-secret-assignment]",
                "my password is [REDACTED:prose-password-word] and my pin is [REDACTED:prose-pin]"));
    }

    @Test
    void sentencesAboutPasswords_shouldNotBeFlagged() {
        assertNoneFlagged(List.of(
                "the password is stored in Vault",
                "password is required",
                "reset your password",
                "the password is incorrect.",
                "the password is wrong",
                "my password is secret",
                "the password is hidden.",
                "The password is expired.",
                "the password is encrypted",
                "the password is hashed with bcrypt.",
                "your password is too short",
                "the password is the same",
                "the password is empty",
                "the password is optional",
                "the password is visible",
                "the password is unavailable",
                "the password is mine",
                "the password is weird",
                "the password is there.",
                "The new password is ready.",
                "the password is right, I checked",
                "The password is case sensitive.",
                "password is case-sensitive",
                "The password is sent over TLS.",
                "If the password is blank, no authentication is done.",
                "the password was reset",
                "the password will be emailed",
                "the password is whatever you set",
                "the password is what you typed when you installed it.",
                "password: string",
                "password: str",
                "password: optional",
                "password: null",
                "password: none",
                "password: whatever",
                "password: admin",
                "password: sekrit",
                "the default password is raspberry.",
                "password = password",
                "password = secret",
                "PASSWORD=nodejs",
                "the password's length",
                "password's fine",
                "the password is managed by the vault",
                "Passcode: none",
                "The passphrase is prompted for.",
                "passwd:         compat",
                "passwd's terminology",
                "密码是必填项",
                "我的密码是什么",
                "密码：请输入",
                "密码是 required"));
    }

    @Test
    void placeholdersAfterAPasswordName_shouldNotBeFlagged() {
        assertNoneFlagged(List.of(
                "the password is changeme",
                "password: changeit",
                "password: ********",
                "password: ***",
                "password: xxxx",
                "password: <password>",
                "password: ${DB_PASSWORD}",
                "the password is example",
                "the password is placeholder",
                "the password is dummy"));
    }

    /** English function words: they end a clause only in sentences about a password ("the password is here"). */
    private static final String FUNCTION_WORDS = """
            also that this there here where what which with without from into about above below after before
            until unless because though either neither both each every some many much more most less same other
            another only even just still already always never again once twice later have been being were will
            would should could might must does done your yours mine ours their theirs itself something anything
            nothing everything someone anyone nobody somewhere elsewhere else otherwise however instead rather
            quite almost perhaps maybe enough very none null true false okay fine good great well sure right
            wrong back away please thanks
            """;

    /** States a password is said to be in ("the password is hidden", "the password is optional"). */
    private static final String STATES = """
            correct incorrect invalid valid reset kept sent lost shown hidden given known unknown forgotten
            written chosen stolen broken taken seen gone blank empty strong weak long short secure insecure safe
            unsafe simple complex easy hard trivial plain plaintext cleartext random unique common default custom
            temporary permanent static dynamic optional mandatory necessary important irrelevant present absent
            current previous original initial final different similar identical secret private public personal
            confidential global local remote internal external manual automatic normal standard ready complete
            incomplete due expire expires free full open real fake bogus longer shorter stronger weaker better
            worse latest last first next prior inside outside lowercase uppercase alphanumeric numeric visible
            invisible obsolete reserved unchanged unset undefined arbitrary
            """;

    /** Nouns of documentation and type annotations ("password: string", "the password is the field"). */
    private static final String DOC_NOUNS = """
            text string char bytes integer number bool boolean object array list dict hash digest salt token
            credential credentials login username user account email phone name length policy manager vault
            keychain keyring keystore file path database server system admin administrator root guest test demo
            pass password passwd passphrase code word phrase auth strength rules field value argument parameter
            option variable input output prompt dialog form page screen button link message type format mode
            method scheme algorithm protocol storage store cache entry record column table attribute property
            setting settings config environment stdin keyboard terminal console clipboard request response header
            body query bcrypt scrypt change update recovery enter confirm verify retype repeat requirement
            minimum maximum limit hint question answer reminder
            """;

    /** Judgements about a password ("the password is weird"). */
    private static final String JUDGEMENTS = """
            weird strange silly stupid dumb lame messy nonsense gibberish garbage terrible perfect cool nice
            clever tricky ugly boring solid decent tiny huge basic ancient fresh familiar english dead fixed
            mixed impossible obscure difficult
            """;

    /** Defaults and stand-ins that documentation prints where a password goes. */
    private static final String DOC_DEFAULTS = """
            mypassword yourpassword supersecret vagrant raspberry postgres mysql toor foobar
            """;

    /** Words whose ending marks a participle, adverb, adjective or abstract noun (-ed, -ing, -ly, -able, -ity ...). */
    private static final String BY_ENDING = """
            required stored expired protected encrypted hashed changed rotated saved missing pending expiring
            usually correctly available changeable visible sensitive obvious useless useful critical optional
            additional encryption rotation requirement requirements strength weakness complexity security
            """;

    /**
     * The English words that end sentences about a password (function words, states, the nouns of documentation and
     * type annotations, judgements, documentation defaults, words with an adjective, participle or abstract-noun
     * ending): each other test of a plain-word rule tries them where its password would be.
     */
    static List<String> lookAlikeWords() {
        String words = String.join(" ", FUNCTION_WORDS, STATES, DOC_NOUNS, JUDGEMENTS, DOC_DEFAULTS, BY_ENDING);
        return List.of(words.trim().split("\\s+"));
    }

    /**
     * The words that end sentences about a password, each tried where a plain-word password would be: function words,
     * states, the nouns of documentation and type annotations, and words whose ending marks an adjective, participle
     * or abstract noun.
     */
    @Test
    void aWordThatEndsASentenceAboutAPassword_shouldNotBeTakenForThePassword() {
        for (String w : lookAlikeWords()) {
            assertNoneFlagged(List.of("the password is " + w, "the password is " + w + ".", "password: " + w));
        }
    }

    @Test
    void passwdAsACommandOrAFileName_shouldNotBeFlagged() {
        assertNoneFlagged(List.of(
                "passwd file",
                "the passwd file",
                "passwd user01",
                "passwd user02",
                "sudo passwd user01",
                "sudo passwd hunter2",
                "$ passwd hunter2",
                "run passwd bob1",
                "passwd alice",
                "passwd root",
                "passwd testuser3",
                "passwd admin2",
                "passwd centos7",
                "passwd debian12",
                "passwd ec2user",
                "passwd hunter2 --stdin",
                "getent passwd user1",
                "/etc/passwd",
                "passwd(1)"));
    }

    @Test
    void pinAsAVerbOrAHardwarePin_shouldNotBeFlagged() {
        assertNoneFlagged(List.of(
                "pin the version",
                "pin 3 dependencies",
                "pin 2 packages",
                "pin 4 dependencies",
                "pin 3.2.1",
                "pin numpy to 1.26",
                "the PIN pad",
                "the pin pad is broken",
                "a 4-digit pin",
                "GPIO pin 2048",
                "header pin 1234",
                "pin 2024 edition",
                "pin 2025",
                "pin 1024 MB",
                "pin 1000 rows to the top",
                "pin 0000",
                "Pin 8080 for the port",
                "we pin 4096 pages",
                "spinning 4821 times",
                "pinned 4821 messages"));
    }
}

package dev.cairn.model.secret;

import static dev.cairn.model.secret.ProsePasswordTest.assertFoundAndRedacted;
import static dev.cairn.model.secret.ProsePasswordTest.assertNoneFlagged;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Plain-word passwords named the short way people write them (rules 2026.12.06-3, {@code prose-password-word}): pw and
 * pwd as the noun, "pass" after wifi, router, email or login, the possessive "my password's", PASSWORD in capitals,
 * and Japanese パスワードは. Each naming also starts sentences that state no password ("pwd: command not found", "the
 * password's length", "the wifi pass is free"), tried beside the positives with the same look-alike words as
 * {@link ProsePasswordTest}.
 */
class ShorthandPasswordTest {

    @Test
    void aPlainWordAfterAShortOrCapitalisedNaming_shouldBeFound_asAPlainWordPassword() {
        Map<String, String> cases = Map.ofEntries(
                Map.entry("my pw is sunflower", "sunflower"),
                Map.entry("wifi pwd: bluebird", "bluebird"),
                Map.entry("the pwd for the router is sunflower.", "sunflower"),
                Map.entry("Pw: sunflower", "sunflower"),
                Map.entry("the wifi pass is sunflower", "sunflower"),
                Map.entry("Wi-Fi pass: bluebird", "bluebird"),
                Map.entry("my email pass is sunflower, don't tell", "sunflower"),
                Map.entry("the router pass was bluebird", "bluebird"),
                Map.entry("ssh pass is letmein", "letmein"),
                Map.entry("the vpn pass: bluebird", "bluebird"),
                Map.entry("my password's sunflower", "sunflower"),
                Map.entry("our wifi password's bluebird.", "bluebird"),
                Map.entry("my pw's sunflower", "sunflower"),
                Map.entry("PASSWORD: sunflower", "sunflower"),
                Map.entry("PASSWORD is sunflower", "sunflower"),
                Map.entry("パスワードは sunflower", "sunflower"),
                Map.entry("パスワード：sunflower", "sunflower"),
                Map.entry("サーバーのパスワードは sunflower です", "sunflower"));
        cases.forEach((text, secret) -> assertFoundAndRedacted(text, secret, "prose-password-word"));
    }

    @Test
    void theShortNamingsWithAValueThatIsNoPlainWord_shouldStayWithTheRulesThatFoundThem() {
        assertFoundAndRedacted("my pw is bluebird42", "bluebird42", "prose-password-en");
        assertFoundAndRedacted("my password's hunter2", "hunter2", "prose-password-bare-en");
        assertFoundAndRedacted("パスワードはxPTVkg8Mdjです", "xPTVkg8Mdj", "prose-password-ja");
    }

    @Test
    void theShortNamingsInSentencesThatStateNoPassword_shouldNotBeFlagged() {
        assertNoneFlagged(List.of(
                "pwd: command not found",
                "$ pwd",
                "cd /tmp && pwd",
                "the pwd is /home/alice",
                "pwd: /usr/local",
                "pwd is builtin",
                "pwd: error",
                "the pw is wrong",
                "your pw is required.",
                "the wifi pass is free",
                "the wifi pass is valid.",
                "email pass: required",
                "router pass is admin",
                "pass: sunflower",
                "bypass: sunflower",
                "the compass is broken",
                "a boarding pass is issued",
                "the password's length",
                "the password's hash",
                "reset the password's expiry.",
                "her password's owner.",
                "my password's strength.",
                "PASSWORD=nodejs",
                "POSTGRES_PASSWORD: postgres",
                "MYSQL_PASSWORD: wordpress",
                "PASSWORD: required",
                "PASSWORD is required",
                "パスワードは必須です",
                "パスワードは hidden です",
                "パスワード：********"));
    }

    /** A form's actions after a colon: the label of a button or a menu, not a password. */
    @Test
    void anActionAfterAPasswordLabel_shouldNotBeTakenForThePassword() {
        for (String w : List.of(
                "show",
                "hide",
                "edit",
                "generate",
                "toggle",
                "delete",
                "remove",
                "copy",
                "paste",
                "save",
                "unlock",
                "display",
                "view",
                "reveal",
                "mask",
                "clear",
                "submit",
                "cancel")) {
            assertNoneFlagged(List.of("password: " + w, "Password: " + w, "PASSWORD: " + w, "wifi pwd: " + w));
        }
    }

    /** The English look-alike words of {@link ProsePasswordTest}, after each new naming. */
    @Test
    void aWordThatEndsASentenceAboutAPassword_shouldNotBeTakenForThePassword_afterTheShortNamings() {
        for (String w : ProsePasswordTest.lookAlikeWords()) {
            assertNoneFlagged(List.of(
                    "my pw is " + w,
                    "wifi pwd: " + w,
                    "the wifi pass is " + w + ".",
                    "ssh pass is " + w,
                    "the db pass: " + w,
                    "my password's " + w,
                    "PASSWORD: " + w,
                    "PASSWORD is " + w,
                    "パスワードは " + w + " です"));
        }
    }
}

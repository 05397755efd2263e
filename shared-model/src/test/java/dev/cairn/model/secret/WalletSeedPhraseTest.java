package dev.cairn.model.secret;

import static dev.cairn.model.secret.ProsePasswordTest.assertFoundAndRedacted;
import static dev.cairn.model.secret.ProsePasswordTest.assertNoneFlagged;

import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Wallet seed phrases (BIP-39: 12 to 24 words from a fixed list of 2048, in steps of three) after their name, in the
 * three forms wallets show them: plain lower-case words ({@code wallet-seed-phrase}), a list numbered from 1, one per
 * line or on one line, and words in capitals ({@code wallet-seed-phrase-list}). Whoever has the words has the wallet,
 * so each form is a secret; sentences about seed phrases, the standard's test vector and runs of the wrong length are
 * not.
 */
class WalletSeedPhraseTest {

    private static final List<String> WORDS = List.of(
            "orbit", "lemon", "cactus", "quiver", "tundra", "melon", "brisk", "anchor", "velvet", "plume", "gravel",
            "sonic", "wagon", "pilot", "fever", "harbor", "ripple", "canyon", "mosaic", "tiger", "ember", "violin",
            "saddle", "crisp");

    private static String numbered(int n, String separator) {
        return IntStream.range(0, n)
                .mapToObj(i -> (i + 1) + ". " + WORDS.get(i))
                .collect(Collectors.joining(separator));
    }

    private static String capitals(int n) {
        return WORDS.subList(0, n).stream().map(String::toUpperCase).collect(Collectors.joining(" "));
    }

    @Test
    void twelveLowerCaseWordsAfterTheName_shouldBeFound_asASeedPhrase() {
        String words = String.join(" ", WORDS.subList(0, 12));
        assertFoundAndRedacted("my seed phrase is " + words, words, "wallet-seed-phrase");
        assertFoundAndRedacted("助记词：" + words, words, "wallet-seed-phrase");
    }

    @Test
    void aNumberedListOfEveryAllowedLength_shouldBeFound_onOneLineOrOnePerLine() {
        for (int n : List.of(12, 15, 18, 21, 24)) {
            String oneLine = numbered(n, " ");
            assertFoundAndRedacted("my seed phrase is " + oneLine, oneLine, "wallet-seed-phrase-list");
            String perLine = numbered(n, "\n");
            assertFoundAndRedacted(
                    "Here is my recovery phrase:\n" + perLine + "\nplease keep it", perLine, "wallet-seed-phrase-list");
        }
        String parens = IntStream.range(0, 12)
                .mapToObj(i -> (i + 1) + ") " + WORDS.get(i))
                .collect(Collectors.joining(", "));
        assertFoundAndRedacted("backup phrase = " + parens, parens, "wallet-seed-phrase-list");
    }

    @Test
    void wordsInCapitals_shouldBeFound_asASeedPhrase() {
        for (int n : List.of(12, 24)) {
            String words = capitals(n);
            assertFoundAndRedacted("MNEMONIC: " + words, words, "wallet-seed-phrase-list");
            assertFoundAndRedacted("seed words " + words, words, "wallet-seed-phrase-list");
        }
    }

    @Test
    void wordsEachCapitalised_shouldBeFound_asASeedPhrase() {
        String words = WORDS.subList(0, 12).stream()
                .map(w -> Character.toUpperCase(w.charAt(0)) + w.substring(1))
                .collect(Collectors.joining(" "));
        assertFoundAndRedacted("my seed phrase is " + words, words, "wallet-seed-phrase-list");
    }

    @Test
    void textsAboutSeedPhrases_andRunsOfTheWrongShape_shouldNotBeFlagged() {
        assertNoneFlagged(List.of(
                "seed phrase: " + numbered(11, " "),
                "seed phrase: " + numbered(13, " "),
                "seed phrase: " + numbered(12, " ").replace("1. orbit", "2. orbit"),
                "MNEMONIC: " + capitals(11),
                "MNEMONIC: " + capitals(13),
                "Seed Phrase: What It Is And Why Your Wallet Needs One Before You Buy Any Coins Today",
                "How to back up a seed phrase:\n1. Write the words down\n2. Keep them offline\n3. Never share them",
                "recovery phrase steps: 1. open settings 2. choose backup 3. confirm the words with your pin",
                "NEVER SHARE YOUR SEED PHRASE WITH ANYONE WHO ASKS FOR IT OVER EMAIL OR PHONE OR CHAT",
                "MNEMONIC: ABANDON ABANDON ABANDON ABANDON ABANDON ABANDON ABANDON ABANDON ABANDON ABANDON ABANDON ABOUT",
                "mnemonic: 1. abandon 2. abandon 3. abandon 4. abandon 5. abandon 6. abandon 7. abandon 8. abandon"
                        + " 9. abandon 10. abandon 11. abandon 12. about"));
    }
}

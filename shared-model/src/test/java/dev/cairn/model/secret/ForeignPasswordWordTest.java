package dev.cairn.model.secret;

import static dev.cairn.model.secret.ProsePasswordTest.assertFoundAndRedacted;
import static dev.cairn.model.secret.ProsePasswordTest.assertNoneFlagged;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Plain-word passwords in German, Spanish, French and Portuguese prose (rules 2026.12.06-3,
 * {@code prose-password-word-de}, {@code -es}, {@code -fr}, {@code -pt}): a lower-case word, accents and all, right
 * after the password noun and "is" or a colon. In each language the same place holds the words of sentences about
 * passwords (required, wrong, expired, too short ...), which stay unflagged, as do the English look-alike words of
 * {@link ProsePasswordTest} after each foreign naming (notes mix languages: "Passwort: string").
 */
class ForeignPasswordWordTest {

    @Test
    void aGermanPlainWordPassword_shouldBeFound() {
        Map<String, String> cases = Map.ofEntries(
                Map.entry("mein Passwort ist sonnenblume", "sonnenblume"),
                Map.entry("Kennwort: sonnenblume", "sonnenblume"),
                Map.entry("das WLAN-Passwort lautet schmetterling.", "schmetterling"),
                Map.entry("das Passwort für den Router ist gänseblümchen, bitte nicht weitersagen", "gänseblümchen"));
        cases.forEach((text, secret) -> assertFoundAndRedacted(text, secret, "prose-password-word-de"));
    }

    @Test
    void aSpanishPlainWordPassword_shouldBeFound() {
        Map<String, String> cases = Map.ofEntries(
                Map.entry("mi contraseña es girasol", "girasol"),
                Map.entry("la contraseña del wifi es añoranza.", "añoranza"),
                Map.entry("contraseña: girasol", "girasol"),
                Map.entry("la contraseña era golondrina y no la cambié", "golondrina"));
        cases.forEach((text, secret) -> assertFoundAndRedacted(text, secret, "prose-password-word-es"));
    }

    @Test
    void aFrenchPlainWordPassword_shouldBeFound() {
        Map<String, String> cases = Map.ofEntries(
                Map.entry("mon mot de passe est tournesol", "tournesol"),
                Map.entry("le mot de passe du wifi est « tournesol »", "tournesol"),
                Map.entry("mot de passe : tournesol", "tournesol"),
                Map.entry("le mot de passe était papillon, merci", "papillon"),
                Map.entry("mon mot de passe est forêt.", "forêt"));
        cases.forEach((text, secret) -> assertFoundAndRedacted(text, secret, "prose-password-word-fr"));
    }

    @Test
    void aPortuguesePlainWordPassword_shouldBeFound() {
        Map<String, String> cases = Map.ofEntries(
                Map.entry("minha senha é girassol", "girassol"),
                Map.entry("a senha do wifi é borboleta.", "borboleta"),
                Map.entry("a minha palavra-passe é girassol", "girassol"),
                Map.entry("senha: maçã", "maçã"));
        cases.forEach((text, secret) -> assertFoundAndRedacted(text, secret, "prose-password-word-pt"));
    }

    @Test
    void aForeignPasswordWithADigitCapitalOrSymbol_shouldStayWithTheGenericRuleOfItsLanguage() {
        assertFoundAndRedacted("Passwort: hunter22", "hunter22", "prose-password-de");
        assertFoundAndRedacted("mein Passwort ist Sonnenblume", "Sonnenblume", "prose-password-de");
        assertFoundAndRedacted("mi contraseña es Girasol7", "Girasol7", "prose-password-es");
        assertFoundAndRedacted("le mot de passe est Tournesol!", "Tournesol!", "prose-password-fr");
        assertFoundAndRedacted("minha senha é Girassol42", "Girassol42", "prose-password-pt");
        assertFoundAndRedacted("a senha do servidor é VkRfYTb4rf", "VkRfYTb4rf", "prose-password-pt");
    }

    @Test
    void germanSentencesAboutPasswords_shouldNotBeFlagged() {
        assertNoneFlagged(List.of(
                "das Passwort ist erforderlich",
                "Kennwort vergessen?",
                "Passwort vergessen",
                "das Passwort ist falsch.",
                "Das Passwort ist möglicherweise falsch.",
                "Passwort: erforderlich",
                "das Passwort ist zu kurz",
                "das Passwort ist gesperrt",
                "das Passwort ist abgelaufen.",
                "das Passwort ist vergeben",
                "das Passwort ist neu",
                "das Passwort ist unverändert",
                "das Passwort ist identisch",
                "Kennwort: optional",
                "Kennwort: ungültig",
                "das Kennwort ist geändert worden",
                "das Passwort ist gleich",
                "das Passwort ist leer",
                "das Passwort ist schwach, bitte ein anderes wählen",
                "das Passwort ist verschlüsselt",
                "das Passwort ist nicht sicher",
                "das Passwort ist gültig",
                "das Passwort ist hinterlegt",
                "das Passwort ist eingestellt",
                "das Passwort ist zurückgesetzt",
                "Passwort: fehlt",
                "Passwort: keins",
                "Passwort: ändern",
                "Passwort: anzeigen",
                "Passwort: speichern",
                "Passwort: string",
                "Passwort: ********"));
    }

    @Test
    void spanishSentencesAboutPasswords_shouldNotBeFlagged() {
        assertNoneFlagged(List.of(
                "la contraseña es obligatoria",
                "la contraseña es incorrecta.",
                "la contraseña es demasiado corta",
                "la contraseña es débil",
                "la contraseña es segura",
                "la contraseña es válida",
                "la contraseña no es válida",
                "contraseña: requerida",
                "contraseña: opcional",
                "contraseña: caducada",
                "la contraseña es nueva",
                "la contraseña es igual",
                "la contraseña es distinta",
                "la contraseña es errónea",
                "la contraseña es la misma",
                "la contraseña es tuya",
                "la contraseña fue cambiada",
                "la clave es paciencia",
                "contraseña: ninguna",
                "contraseña: cambiar",
                "contraseña: mostrar",
                "contraseña: olvidada",
                "contraseña: ********"));
    }

    @Test
    void frenchSentencesAboutPasswords_shouldNotBeFlagged() {
        assertNoneFlagged(List.of(
                "le mot de passe est incorrect",
                "le mot de passe est faux",
                "le mot de passe est expiré.",
                "le mot de passe est réinitialisé.",
                "le mot de passe est requis",
                "mot de passe : facultatif",
                "mot de passe : obligatoire",
                "le mot de passe est vide",
                "le mot de passe est invalide",
                "le mot de passe est différent",
                "le mot de passe est identique",
                "le mot de passe est chiffré",
                "le mot de passe est oublié",
                "le mot de passe est perdu",
                "le mot de passe est trop court",
                "La combinaison nom d’utilisateur/mot de passe est défini par les clés",
                "Le nom d’utilisateur ou le mot de passe est trop long pour le protocole",
                "mot de passe : aucun",
                "mot de passe : modifier",
                "mot de passe : afficher",
                "mot de passe : ********"));
    }

    @Test
    void portugueseSentencesAboutPasswords_shouldNotBeFlagged() {
        assertNoneFlagged(List.of(
                "a senha é obrigatória",
                "a senha é obrigatória.",
                "a senha é inválida",
                "a senha é fraca",
                "a senha é forte",
                "a senha é nova",
                "a senha é diferente",
                "a senha é igual",
                "a senha é muito curta",
                "senha: obrigatório",
                "a senha foi alterada",
                "a senha expirou",
                "senha incorreta",
                "digite sua senha e confirme.",
                "A senha para %s não foi modificada.",
                "Autenticação por palavra-passe foi contornada.",
                "senha do proxy\n--proxy-user=USER",
                "senha: nenhuma",
                "senha: alterar",
                "senha: mostrar",
                "senha: esqueceu",
                "senha: ********"));
    }

    /** The English look-alike words after each foreign naming: notes and messages mix languages. */
    @Test
    void anEnglishLookAlikeWordAfterAForeignNaming_shouldNotBeTakenForThePassword() {
        for (String w : ProsePasswordTest.lookAlikeWords()) {
            assertNoneFlagged(List.of(
                    "das Passwort ist " + w,
                    "Kennwort: " + w,
                    "la contraseña es " + w,
                    "contraseña: " + w + ".",
                    "le mot de passe est " + w,
                    "mot de passe : " + w,
                    "a senha é " + w,
                    "senha: " + w + "."));
        }
    }

    /** Generic rules skip a value that is a word of prose, whatever its script: accents made it look random. */
    @Test
    void aLowerCaseWordWithAccentsOrInAnotherScript_shouldCountAsALowerCaseWord() {
        for (String w : List.of("sunflower", "girassol", "añoranza", "réinitialisé", "maçã", "größe", "пароль")) {
            assertThat(SecretScanner.isLowerCaseWord(w)).as(w).isTrue();
        }
        for (String w : List.of("Añoranza", "girasol7", "añoranza!", "密码", "pass_word")) {
            assertThat(SecretScanner.isLowerCaseWord(w)).as(w).isFalse();
        }
    }
}

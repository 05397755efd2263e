package dev.cairn.model.secret;

import static dev.cairn.model.secret.ProsePasswordTest.assertFoundAndRedacted;
import static dev.cairn.model.secret.ProsePasswordTest.assertNoneFlagged;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Door, gate, garage, lock, alarm and keypad codes (rules 2026.12.06-3, {@code prose-door-code}): 4 to 8 digits after
 * the name of what they open. "Code" alone names error, status, zip, area and country codes, and numbers after a
 * door code can be a year, a version or a count; those stay unflagged.
 */
class DoorCodeTest {

    @Test
    void digitsAfterTheCodeOfADoorOrALock_shouldBeFound_asADoorCode() {
        Map<String, String> cases = Map.ofEntries(
                Map.entry("the door code is 4821", "4821"),
                Map.entry("gate code: 90210", "90210"),
                Map.entry("garage code 7731", "7731"),
                Map.entry("the front door code is 4821.", "4821"),
                Map.entry("the alarm code is 58213, don't tell anyone", "58213"),
                Map.entry("Keypad code: 004821", "004821"),
                Map.entry("the lockbox code is 4821 and the key is inside", "4821"),
                Map.entry("the door code for the office is 4821#.", "4821"),
                Map.entry("the code for the front door is 4821", "4821"),
                Map.entry("the code to the garage is 7731", "7731"),
                Map.entry("the safe combination is 482193", "482193"),
                Map.entry("lock combination: 3719", "3719"),
                Map.entry("the gate code was changed to 90210", "90210"),
                Map.entry("the alarm code is 1984", "1984"),
                Map.entry("door code \"4821\"", "4821"),
                Map.entry("garage opener code: 7731", "7731"),
                Map.entry("keypad 4821", "4821"),
                Map.entry("the keypad is 58213, don't tell", "58213"),
                Map.entry("keypad: 004821", "004821"));
        cases.forEach((text, secret) -> assertFoundAndRedacted(text, secret, "prose-door-code"));
    }

    @Test
    void otherCodesAndNumbersAfterADoorCode_shouldNotBeFlagged() {
        assertNoneFlagged(List.of(
                "error code 404",
                "the error code is 4821",
                "zip code 90210",
                "my zip code is 90210",
                "area code 415",
                "the area code is 4151",
                "status code 500",
                "HTTP status code 5000",
                "country code 0044",
                "code 1234 of the manual",
                "see code 1234",
                "the code is 4821",
                "gate code 2024",
                "entry code: 2025",
                "door code 2024 edition",
                "lock code 1.2.3",
                "the gate code is v2.1.0",
                "door code 1234 lines",
                "lock code 2048 bytes",
                "the door code is 4 digits",
                "the door code is 0000",
                "garage code 1111",
                "deadlock code 4821",
                "delegate code 4821",
                "block code 4821",
                "the door code changed in 2024",
                "the door code is on the fridge",
                "door codes 1234",
                "the door code is 12",
                "the door code is 123456789",
                "keypad 2024",
                "keypad 1234 layout",
                "the keypad has 12 keys",
                "keypad 3x4",
                "keypad: 2025"));
    }
}

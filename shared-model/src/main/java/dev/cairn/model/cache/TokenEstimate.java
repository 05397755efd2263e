package dev.cairn.model.cache;

/**
 * Token counts without the model's tokenizer (Anthropic publishes none for current models; its count_tokens endpoint
 * is a network call): one token per Han, kana or Hangul character, one per 3.5 other characters, rounded up. It
 * overestimates English prose slightly (Claude averages about 3.5–4 characters per token), which errs on the safe side
 * for the minimum cacheable length and for {@code max_tokens}. The usage ledger reports the real counts.
 */
public final class TokenEstimate {

    private TokenEstimate() {}

    public static int of(String text) {
        if (text == null || text.isEmpty()) {
            return 0;
        }
        long cjk = 0;
        long other = 0;
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            i += Character.charCount(cp);
            Character.UnicodeScript s = Character.UnicodeScript.of(cp);
            if (s == Character.UnicodeScript.HAN
                    || s == Character.UnicodeScript.HIRAGANA
                    || s == Character.UnicodeScript.KATAKANA
                    || s == Character.UnicodeScript.HANGUL) {
                cjk++;
            } else {
                other++;
            }
        }
        return (int) Math.min(Integer.MAX_VALUE, cjk + (other * 2 + 6) / 7);
    }
}

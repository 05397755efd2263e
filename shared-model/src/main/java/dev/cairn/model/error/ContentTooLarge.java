package dev.cairn.model.error;

/** A single piece of content is above its cap. */
public class ContentTooLarge extends CairnException {

    public ContentTooLarge(String field, long bytes, long cap) {
        super(field + " is " + bytes + " bytes of UTF-8; the most accepted is " + cap + " bytes");
    }

    /** A count above its cap, said in its own unit ("delta holds 501 ops; the most accepted is 500 ops"). */
    public ContentTooLarge(String field, long count, long cap, String unit) {
        super(field + " holds " + count + " " + unit + "; the most accepted is " + cap + " " + unit);
    }

    @Override
    public String kind() {
        return "content-too-large";
    }

    @Override
    public String title() {
        return "Content too large";
    }
}

package dev.cairn.model.error;

/** A single piece of content is above its cap. */
public class ContentTooLarge extends CairnException {

    public ContentTooLarge(String field, long bytes, long cap) {
        super(field + " is " + bytes + " bytes of UTF-8; the most accepted is " + cap + " bytes");
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

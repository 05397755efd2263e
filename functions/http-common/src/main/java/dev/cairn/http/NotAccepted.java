package dev.cairn.http;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * On a request body: a field the resource knows but does not take in this body, and why. A body naming it is refused
 * as an unknown field would be (400), with the reason instead of "unknown": a user sending a memory's
 * {@code context} in a {@code PATCH} learns that it is set when the memory is written, not that no such field exists.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface NotAccepted {

    /** The field's name in the body. */
    String field();

    /** Why it is not taken and what to do instead; follows "is not accepted here: ". */
    String because();
}

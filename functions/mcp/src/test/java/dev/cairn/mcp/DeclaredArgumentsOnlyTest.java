package dev.cairn.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.model.error.InvalidInput;
import io.quarkiverse.mcp.server.ToolManager.ToolArgument;
import io.vertx.core.json.JsonObject;
import java.lang.reflect.Type;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DeclaredArgumentsOnlyTest {

    /** Holders of the generic types the tools declare. */
    @SuppressWarnings("unused")
    private List<String> tags;

    @SuppressWarnings("unused")
    private Map<String, Object> params;

    private static Type generic(String field) {
        try {
            return DeclaredArgumentsOnlyTest.class.getDeclaredField(field).getGenericType();
        } catch (NoSuchFieldException e) {
            throw new AssertionError(e);
        }
    }

    private static final List<ToolArgument> REMEMBER = List.of(
            new ToolArgument("content", "", true, String.class, null),
            new ToolArgument("importance", "", false, Double.class, null),
            new ToolArgument("top_k", "", false, Integer.class, null),
            new ToolArgument("tags", "", false, generic("tags"), null),
            new ToolArgument("params", "", false, generic("params"), null),
            new ToolArgument("snapshot", "", false, Boolean.class, null));

    private static InvalidInput refused(String args) {
        return DeclaredArgumentsOnly.check("remember", REMEMBER, new JsonObject(args))
                .orElseThrow(() -> new AssertionError("accepted: " + args));
    }

    @Test
    void argumentsOfTheDeclaredJsonTypes_shouldPass_andAbsentOptionalOnesOrNullsToo() {
        assertThat(DeclaredArgumentsOnly.check(
                        "remember",
                        REMEMBER,
                        new JsonObject("{\"content\":\"We use Go\",\"importance\":1,\"top_k\":5.0,"
                                + "\"tags\":[\"go\"],\"params\":{\"a\":1},\"snapshot\":true}")))
                .isEmpty();
        assertThat(DeclaredArgumentsOnly.check(
                        "remember", REMEMBER, new JsonObject("{\"content\":\"x\",\"importance\":null}")))
                .isEmpty();
    }

    @Test
    void aValueOfTheWrongJsonType_shouldBeRefusedNamingTheArgumentAndBothTypes() {
        InvalidInput e = refused("{\"content\":\"x\",\"importance\":\"high\"}");
        assertThat(e.errors()).singleElement().satisfies(f -> {
            assertThat(f.field()).isEqualTo("importance");
            assertThat(f.message()).isEqualTo("must be a number, not a string");
        });
        assertThat(refused("{\"content\":\"x\",\"tags\":\"go\"}").getMessage()).contains("tags", "an array");
        assertThat(refused("{\"content\":\"x\",\"params\":[1]}").getMessage()).contains("params", "an object");
        assertThat(refused("{\"content\":\"x\",\"snapshot\":\"yes\"}").getMessage())
                .contains("snapshot", "a boolean");
    }

    @Test
    void aFractionWhereAWholeNumberIsDeclared_shouldBeRefused() {
        assertThat(refused("{\"content\":\"x\",\"top_k\":2.5}").errors())
                .singleElement()
                .satisfies(
                        f -> assertThat(f.message()).isEqualTo("must be a whole number, not a number with a fraction"));
    }

    @Test
    void aMissingRequiredArgument_andEveryOtherMistake_shouldBeListedInOneAnswer() {
        InvalidInput e = refused("{\"importance\":\"high\",\"top_k\":\"3\"}");
        assertThat(e.errors()).extracting(f -> f.field()).containsExactly("content", "importance", "top_k");
        assertThat(e.errors().get(0).message()).isEqualTo("is required (a string)");
    }

    @Test
    void anUndeclaredArgument_shouldBeRefusedListingTheArgumentsTheToolTakes() {
        InvalidInput e = refused("{\"content\":\"x\",\"importnce\":0.2}");
        assertThat(e.getMessage()).contains("importnce", "importance", "content");
    }

    @Test
    void aMisspeltArgument_shouldBeNamedWithTheOneItCouldMean_besideEveryOtherMistake() {
        InvalidInput e = refused("{\"querry\":\"deploy\",\"top_k\":\"3\"}");

        assertThat(e.errors()).extracting(f -> f.field()).containsExactly("querry", "content", "top_k");
        assertThat(e.errors().get(0).message()).contains("is not an argument of remember");
        // querry is not near any of remember's names; importnce is
        assertThat(e.errors().get(0).message()).doesNotContain("did you mean");
        assertThat(refused("{\"content\":\"x\",\"importnce\":0.2}")
                        .errors()
                        .get(0)
                        .message())
                .contains("(did you mean importance?)");
    }
}

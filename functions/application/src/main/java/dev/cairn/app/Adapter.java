package dev.cairn.app;

import jakarta.enterprise.util.AnnotationLiteral;
import jakarta.inject.Qualifier;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a port implementation an adapter module produces, by the name configuration selects it with: the lower-case
 * name of a {@link BackendConfig} kind ({@code sqlite}, {@code dynamodb}, {@code lucene}, ...). Adapter beans carry
 * only this qualifier, never {@code @Default}, so any number of adapter modules can sit on one classpath (the local
 * server has both) and only {@link Ports} decides which one an injection point of the bare port type receives.
 * Adapter producers are also {@code @Unremovable}: they are reached only through {@code Instance} lookups, which
 * Quarkus' unused-bean removal does not count as uses.
 */
@Qualifier
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.FIELD, ElementType.PARAMETER, ElementType.TYPE})
public @interface Adapter {

    String SQLITE = "sqlite";
    String DYNAMODB = "dynamodb";
    String LUCENE = "lucene";
    String OPENSEARCH = "opensearch";
    String ONNX = "onnx";
    String BEDROCK = "bedrock";
    String EXTRACTIVE = "extractive";
    String RULES = "rules";
    String EMBEDDED = "embedded";
    String OPENAI = "openai";

    String value();

    /** The qualifier as a value, for {@code Instance.select}. */
    final class Literal extends AnnotationLiteral<Adapter> implements Adapter {
        private final String value;

        private Literal(String value) {
            this.value = value;
        }

        public static Adapter of(Enum<?> kind) {
            return new Literal(BackendConfig.name(kind));
        }

        @Override
        public String value() {
            return value;
        }
    }
}

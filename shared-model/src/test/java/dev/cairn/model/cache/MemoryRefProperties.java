package dev.cairn.model.cache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.model.cache.ContextAssembler.MemoryRef;
import java.util.List;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * A snapshot's list of the memories it showed reads back exactly as written, whatever the texts hold (tabs, newlines,
 * backslashes), with or without a context; lists written before memories had contexts still read.
 */
class MemoryRefProperties {

    @Property
    void anEncodedList_decodesToTheSameRefs(
            @ForAll String content1, @ForAll String context1, @ForAll String content2, @ForAll boolean withContext) {
        List<MemoryRef> refs = List.of(
                new MemoryRef("mem_a", "episode", content1, withContext ? context1 : null),
                new MemoryRef("mem_b", "fact", content2, null));
        StringBuilder encoded = new StringBuilder();
        refs.forEach(r -> encoded.append(r.encode()));
        assertThat(MemoryRef.decode(encoded.toString())).isEqualTo(refs);
    }

    @Example
    void aListWrittenBeforeContexts_decodesWithNoContext() {
        assertThat(MemoryRef.decode("mem_a\tfact\tUses Maven\\tGradle\n"))
                .containsExactly(new MemoryRef("mem_a", "fact", "Uses Maven\tGradle", null));
    }

    @Example
    void theMemoriesBlock_showsAContextIndentedUnderItsMemory() {
        String block = ContextAssembler.memoriesBlock(List.of(
                new MemoryRef("mem_a", "episode", "Which broker?", "Kestrel.\nManaged."),
                new MemoryRef("mem_b", "fact", "Uses Maven", null)));
        assertThat(block)
                .isEqualTo("What you remember about this user and team:\n"
                        + "- (episode) Which broker?\n"
                        + "  context: Kestrel.\n"
                        + "  Managed.\n"
                        + "- (fact) Uses Maven\n");
    }
}

package dev.cairn.model.cache;

import java.time.Instant;
import java.util.List;

/**
 * A context as assembled for one turn: the blocks by content hash, so a restore reads the snapshot and its blocks —
 * a constant number of items — instead of replaying the session.
 */
public record ContextSnapshot(long turn, Instant assembledAt, String model, int maxTokens, List<Block> blocks) {

    /** {@code cacheTtl} is {@code "5m"}, {@code "1h"} or null (no breakpoint after this block). */
    public record Block(String kind, String hash, int tokens, String cacheTtl) {}

    public ContextSnapshot {
        blocks = List.copyOf(blocks);
    }

    /** The block list as lines of {@code kind hash tokens ttl} ({@code -} for no ttl), how stores keep it. */
    public String encodeBlocks() {
        StringBuilder b = new StringBuilder();
        for (Block x : blocks) {
            b.append(x.kind())
                    .append(' ')
                    .append(x.hash())
                    .append(' ')
                    .append(x.tokens())
                    .append(' ')
                    .append(x.cacheTtl() == null ? "-" : x.cacheTtl())
                    .append('\n');
        }
        return b.toString();
    }

    public static List<Block> decodeBlocks(String lines) {
        List<Block> out = new java.util.ArrayList<>();
        for (String line : lines.split("\n")) {
            if (!line.isEmpty()) {
                String[] p = line.split(" ");
                out.add(new Block(p[0], p[1], Integer.parseInt(p[2]), p[3].equals("-") ? null : p[3]));
            }
        }
        return out;
    }
}

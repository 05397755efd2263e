package dev.cairn.model.cache;

import dev.cairn.model.cache.ContextAssembler.MemoryRef;
import dev.cairn.model.id.Id;
import dev.cairn.model.memory.DeleteCascade;
import dev.cairn.model.port.SessionCacheStore;
import dev.cairn.model.port.SessionCacheStore.Shown;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Removes a deleted memory's text from every context snapshot that embeds it. Filtering on restore hides it from
 * readers, but the text would stay in the store for good; here each snapshot that showed the memory is rewritten as if
 * the memory had never been shown (its memories block re-rendered from the rest of the snapshot's list, the list
 * without it), and the blocks that held the text are deleted once no rewritten snapshot references them.
 *
 * <p>Snapshots are found through the store's record of what each showed ({@link SessionCacheStore#recordShown},
 * written before the snapshot), so a purge reads only the snapshots concerned. Idempotent: a purge interrupted half
 * way is finished by running it again (the records are dropped last).
 */
public final class SnapshotPurge implements DeleteCascade {

    private final SessionCacheStore store;

    public SnapshotPurge(SessionCacheStore store) {
        this.store = store;
    }

    @Override
    public void deleted(Id team, Id memory) {
        purge(team, memory);
    }

    /** Rewrites every snapshot that showed {@code memory}; answers how many were rewritten. */
    public int purge(Id team, Id memory) {
        int rewritten = 0;
        Map<Id, Set<String>> dropped = new LinkedHashMap<>(); // per session: hashes the old snapshots referenced
        Map<Id, Set<String>> kept = new LinkedHashMap<>(); // per session: hashes the rewritten snapshots reference
        for (Shown shown : store.snapshotsShowing(team, memory)) {
            Optional<ContextSnapshot> found = store.snapshot(team, shown.session(), shown.turn());
            if (found.isEmpty()) {
                continue;
            }
            ContextSnapshot old = found.get();
            Map<String, String> texts = store.blocks(
                    team,
                    shown.session(),
                    old.blocks().stream().map(ContextSnapshot.Block::hash).toList());
            String index = old.blocks().stream()
                    .filter(b -> b.kind().equals(ContextAssembler.MEMORY_INDEX))
                    .map(b -> texts.getOrDefault(b.hash(), ""))
                    .findFirst()
                    .orElse("");
            List<MemoryRef> refs = MemoryRef.decode(index);
            List<MemoryRef> rest =
                    refs.stream().filter(r -> !r.id().equals(memory.value())).toList();
            if (rest.size() == refs.size()) {
                continue; // already purged
            }
            Map<String, String> newTexts = new LinkedHashMap<>();
            List<ContextSnapshot.Block> blocks = new ArrayList<>();
            for (ContextSnapshot.Block b : old.blocks()) {
                String text;
                if (b.kind().equals(ContextAssembler.MEMORY_INDEX)) {
                    StringBuilder encoded = new StringBuilder();
                    rest.forEach(r -> encoded.append(r.encode()));
                    text = encoded.toString();
                } else if (b.kind().equals("memories")) {
                    text = ContextAssembler.memoriesBlock(rest);
                } else {
                    kept.computeIfAbsent(shown.session(), x -> new HashSet<>()).add(b.hash());
                    blocks.add(b);
                    continue;
                }
                dropped.computeIfAbsent(shown.session(), x -> new HashSet<>()).add(b.hash());
                if (text.isEmpty()) {
                    continue; // nothing else was shown: the block goes
                }
                String hash = ContextAssembler.sha256(text);
                newTexts.putIfAbsent(hash, text);
                kept.computeIfAbsent(shown.session(), x -> new HashSet<>()).add(hash);
                int tokens = b.kind().equals(ContextAssembler.MEMORY_INDEX) ? 0 : TokenEstimate.of(text);
                blocks.add(new ContextSnapshot.Block(b.kind(), hash, tokens, b.cacheTtl()));
            }
            store.putSnapshot(
                    team,
                    shown.session(),
                    new ContextSnapshot(old.turn(), old.assembledAt(), old.model(), old.maxTokens(), blocks),
                    newTexts);
            rewritten++;
        }
        for (Map.Entry<Id, Set<String>> e : dropped.entrySet()) {
            Set<String> gone = new HashSet<>(e.getValue());
            gone.removeAll(kept.getOrDefault(e.getKey(), Set.of()));
            if (!gone.isEmpty()) {
                store.deleteBlocks(team, e.getKey(), gone);
            }
        }
        store.forgetShown(team, memory);
        return rewritten;
    }
}

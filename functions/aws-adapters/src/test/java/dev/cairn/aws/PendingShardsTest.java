package dev.cairn.aws;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.model.id.Id;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The pending index no longer has one hot partition: memories spread over all shards about evenly (the busiest within
 * 1.5× the mean for 10,000 memories of 10 teams), a memory's shard is stable, and catch-up reads every shard plus the
 * value items written before the change carry.
 */
class PendingShardsTest {

    @Test
    void memories_spreadOverEveryShard_noneHot() {
        Map<String, Integer> perShard = new HashMap<>();
        int n = 10_000;
        for (int i = 0; i < n; i++) {
            Id team = new Id("team" + (i % 10));
            Id id = new Id(String.format("01jd%022d", i));
            perShard.merge(DynamoDbMemoryStore.pendingShard(team, id), 1, Integer::sum);
        }
        assertThat(perShard).hasSize(DynamoDbMemoryStore.PENDING_SHARDS);
        double mean = (double) n / DynamoDbMemoryStore.PENDING_SHARDS;
        assertThat(perShard.values()).allSatisfy(c -> assertThat(c).isBetween((int) (mean / 1.5), (int) (mean * 1.5)));
    }

    @Test
    void aMemorysShard_isStable_andCatchUpReadsEveryShardAndTheLegacyValue() {
        Id team = new Id("acme");
        Id id = new Id("m1");
        assertThat(DynamoDbMemoryStore.pendingShard(team, id)).isEqualTo(DynamoDbMemoryStore.pendingShard(team, id));
        assertThat(DynamoDbMemoryStore.pendingPartitions())
                .hasSize(DynamoDbMemoryStore.PENDING_SHARDS + 1)
                .contains("all", DynamoDbMemoryStore.pendingShard(team, id));
    }
}

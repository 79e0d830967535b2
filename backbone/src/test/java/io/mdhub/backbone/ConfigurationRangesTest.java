package io.mdhub.backbone;

import static io.mdhub.common.test.ConfigurationRanges.assertEveryNumericKeyIsRangeChecked;

import java.util.Set;

import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;

/**
 * Every numeric key of this module's configuration refuses a value outside its range at start.
 */
@InterruptAfter(30)
class ConfigurationRangesTest
{
    @Test
    void backboneConfigurationKeys()
    {
        assertEveryNumericKeyIsRangeChecked(BackboneConfiguration.class, Set.of(
            BackboneConfiguration.AERON_DIR_PROP_NAME, BackboneConfiguration.CONDUCTOR_IDLE_STRATEGY_PROP_NAME,
            BackboneConfiguration.IDLE_STRATEGY_PROP_NAME, BackboneConfiguration.RECEIVER_IDLE_STRATEGY_PROP_NAME,
            BackboneConfiguration.SENDER_IDLE_STRATEGY_PROP_NAME,
            BackboneConfiguration.SHARED_NETWORK_IDLE_STRATEGY_PROP_NAME,
            BackboneConfiguration.THREADING_MODE_PROP_NAME));
    }
}

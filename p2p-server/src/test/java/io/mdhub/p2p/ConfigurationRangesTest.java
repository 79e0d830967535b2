package io.mdhub.p2p;

import static io.mdhub.common.test.ConfigurationRanges.assertEveryNumericKeyIsRangeChecked;

import java.util.Set;

import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;
import io.mdhub.p2p.backbone.BackboneSourceConfiguration;
import io.mdhub.p2p.order.OrderServiceConfiguration;

/**
 * Every numeric key of this module's configuration refuses a value outside its range at start.
 */
@InterruptAfter(30)
class ConfigurationRangesTest
{
    @Test
    void p2pConfigurationKeys()
    {
        assertEveryNumericKeyIsRangeChecked(P2pConfiguration.class, Set.of(
            P2pConfiguration.BIND_ADDRESS_PROP_NAME, P2pConfiguration.COMPONENT_NAME_PROP_NAME,
            P2pConfiguration.USAGE_DIR_PROP_NAME));
    }

    @Test
    void backboneSourceConfigurationKeys()
    {
        assertEveryNumericKeyIsRangeChecked(BackboneSourceConfiguration.class, Set.of(
            BackboneSourceConfiguration.BUSY_POLL_PROP_NAME, BackboneSourceConfiguration.CHANNEL_PROP_NAME,
            BackboneSourceConfiguration.CONTROL_CHANNEL_PROP_NAME, BackboneSourceConfiguration.WAKE_PROP_NAME));
    }

    @Test
    void orderServiceConfigurationKeys()
    {
        assertEveryNumericKeyIsRangeChecked(OrderServiceConfiguration.class, Set.of(
            OrderServiceConfiguration.ADDRESS_PROP_NAME, OrderServiceConfiguration.FENCE_ADDRESS_PROP_NAME,
            OrderServiceConfiguration.IDLE_STRATEGY_PROP_NAME, OrderServiceConfiguration.PEER_ADDRESS_PROP_NAME,
            OrderServiceConfiguration.PEER_FENCE_ADDRESS_PROP_NAME,
            OrderServiceConfiguration.PEER_REMOTE_ADDRESS_PROP_NAME,
            OrderServiceConfiguration.POST_PROCESSOR_PROP_NAME, OrderServiceConfiguration.PRE_PROCESSOR_PROP_NAME,
            OrderServiceConfiguration.QUEUE_DIR_PROP_NAME, OrderServiceConfiguration.SINK_PROP_NAME));
    }
}

package io.mdhub.distributor;

import static io.mdhub.common.test.ConfigurationRanges.assertEveryNumericKeyIsRangeChecked;

import java.util.Set;

import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;
import io.mdhub.distributor.backbone.DistributorBackboneConfiguration;

/**
 * Every numeric key of this module's configuration refuses a value outside its range at start.
 */
@InterruptAfter(30)
class ConfigurationRangesTest
{
    @Test
    void distributorConfigurationKeys()
    {
        assertEveryNumericKeyIsRangeChecked(DistributorConfiguration.class, Set.of(
            DistributorConfiguration.BIND_ADDRESS_PROP_NAME, DistributorConfiguration.COMPONENT_NAME_PROP_NAME,
            DistributorConfiguration.ROUTE_MIRRORING_PROP_NAME, DistributorConfiguration.ROUTE_USER_PROP_NAME,
            DistributorConfiguration.ROUTES_PROP_NAME));
    }

    @Test
    void distributorBackboneConfigurationKeys()
    {
        assertEveryNumericKeyIsRangeChecked(DistributorBackboneConfiguration.class, Set.of(
            DistributorBackboneConfiguration.AERON_DIR_PROP_NAME, DistributorBackboneConfiguration.BUSY_POLL_PROP_NAME,
            DistributorBackboneConfiguration.CHANNEL_PROP_NAME,
            DistributorBackboneConfiguration.CONTROL_CHANNEL_PROP_NAME,
            DistributorBackboneConfiguration.WAKE_PROP_NAME));
    }
}

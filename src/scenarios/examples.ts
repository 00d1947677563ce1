/** A small scenario in YAML, shown where one is asked for: the control API's example and the dashboard's Scenarios view. */
export const LINK_SCENARIO_YAML = `name: Payment link waiting for its customer
merchants:
  shop: { business_name: Mama Put Foods Ltd, wallet_balance: 0, webhook_capture: {} }
payment_links:
  - { as: jollof, amount: 12500, description: Jollof rice for two }
`;

/** What a tenant's view shows before a tenant is chosen. */
export function NeedTenant() {
  return <p class="empty">Choose a tenant first: in the <a href="#tenants">Tenants</a> view, or with the Tenant menu at the top.</p>;
}

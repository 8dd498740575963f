import { Breadcrumb } from 'antd';
import { Link, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { routeChain } from '../../access';

/** The trail of the current page in the route table, titles translated. */
export function Breadcrumbs() {
  const { t } = useTranslation('route');
  const { pathname } = useLocation();
  const chain = routeChain(pathname).filter((r) => r.meta?.title);
  const seen = new Set<string>();
  const items = chain
    .filter((r) => (seen.has(r.meta!.title) ? false : (seen.add(r.meta!.title), true)))
    .map((r, i, all) => {
      const title = t(r.meta!.title);
      const last = i === all.length - 1;
      const to = r.view ? r.fullPath : r.redirect;
      return { key: r.fullPath, title: !last && to && to !== pathname ? <Link to={to}>{title}</Link> : title };
    });
  return <Breadcrumb items={items} />;
}

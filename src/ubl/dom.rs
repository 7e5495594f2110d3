//! A UBL document as the official validator sees it: its elements with their
//! namespaces, local names, attributes and text, in document order, read once by the
//! crate's own XML 1.0 reader (`read`), namespaces resolved as it reads. Nodes live in
//! one arena, found by index; an element's children, its parent and its following sibling are indexes too, so a
//! walk allocates nothing. Memory is linear in the input (a node is a few words; text
//! and attribute values are kept once in one string). No DTD is read and no entity
//! but the five XML predefines and character references is resolved.

mod read;

use read::{resolve, Kind, Lexer, QName, Token};
use std::fmt::Write as _;
use std::ops::Range;

/// The index of an element in its [`Dom`].
pub type NodeId = u32;

/// "No node".
const NONE: NodeId = NodeId::MAX;

/// How deep elements may nest: far past any real invoice (UBL nests about 10 deep),
/// and a bound on the walks' recursion.
pub const MAX_DEPTH: usize = 256;

/// One element.
#[derive(Debug, Clone)]
struct Node {
    /// Its namespace (an index into [`Dom::namespaces`]; 0 is no namespace).
    ns: u32,
    /// Its local name (an index into [`Dom::names`]).
    name: u32,
    parent: NodeId,
    /// Its own text (its text children, concatenated), a range of [`Dom::strings`].
    text: Range<u32>,
    /// Where its attributes start in [`Dom::attrs`], and how many (a start and a
    /// count of two bytes, not a range: a node is 32 bytes, not 36, and a 50 MB UBL
    /// has 1.3 million).
    attrs: u32,
    attr_count: u16,
    /// Its depth (the root is 0).
    depth: u16,
    /// The index after its last descendant: its subtree is `id..end`.
    end: NodeId,
}

/// One attribute: its local name (an index into [`Dom::names`]) and its value (a
/// range of [`Dom::strings`]); attributes in a namespace (`xmlns:…`, `xsi:…`) are not
/// kept.
#[derive(Debug, Clone)]
struct Attr {
    name: u32,
    value: Range<u32>,
}

/// A document read into an arena of elements.
#[derive(Debug, Clone, Default)]
pub struct Dom {
    nodes: Vec<Node>,
    attrs: Vec<Attr>,
    strings: String,
    namespaces: Vec<String>,
    /// The number of each URI in `namespaces` (a document may declare many: found by
    /// hashing, not by a scan of them all).
    namespace_index: std::collections::HashMap<String, u32>,
    /// Every local name of an element or attribute, once (a UBL has a few hundred).
    names: Vec<String>,
    /// The index of each name in `names`.
    name_index: std::collections::HashMap<String, u32>,
    /// The last name found in each of [`NAME_SLOTS`] slots, while reading.
    recent: Vec<u32>,
    /// The elements of each (namespace, local name), in document order: built when a
    /// rule first asks for the elements of a name below some element.
    by_name: std::cell::OnceCell<ByName>,
    /// The attributes of each local name (element, index), in document order: built
    /// when a rule first asks for the attributes of a name anywhere (`//@schemeName`).
    by_attribute: std::cell::OnceCell<Vec<Vec<(NodeId, u32)>>>,
}

/// The slots of the reader's table of recent names.
const NAME_SLOTS: usize = 256;

/// How many namespace declarations may be in scope at once (as quick-xml's resolver
/// allowed): a bound on the memory and on the time of resolving a prefix.
const MAX_BINDINGS: usize = 128;

/// The XML namespace, which only `xml` may name, and the one of `xmlns`.
const XML_NS: &str = "http://www.w3.org/XML/1998/namespace";
const XMLNS_NS: &str = "http://www.w3.org/2000/xmlns/";

/// The namespace declarations in scope while reading: each prefix (empty for the
/// default namespace) with its namespace's number, the innermost last, and where
/// each open element's own declarations start.
///
/// quick-xml's `NsReader` resolved the same way, but it read each start tag's
/// attributes once more to find the declarations and copied every resolved URI: 5.4 M
/// of the reader's 29.8 M instructions on the 500-line document (callgrind). Resolving
/// here, in the one pass over the attributes that keeps them, with the table of recent
/// names ([`Dom::intern`]) and one count of `<`, took the reader to 15.6 M; the
/// crate's own XML reader (`read`) in place of quick-xml's, to 9.06 M.
#[derive(Default)]
struct Scope {
    bindings: Vec<(String, u32)>,
    marks: Vec<usize>,
}

impl Scope {
    fn open(&mut self) {
        self.marks.push(self.bindings.len());
    }

    fn close(&mut self) {
        if let Some(mark) = self.marks.pop() {
            self.bindings.truncate(mark);
        }
    }

    /// `xmlns` or `xmlns:prefix` on the element just opened. The `xml` and `xmlns`
    /// prefixes and namespaces are reserved, as XML's namespaces say.
    fn declare(&mut self, prefix: &str, uri: &str, ns: u32) -> Result<(), NotXml> {
        if prefix == "xml" && uri == XML_NS {
            return Ok(());
        }
        if prefix == "xml" || prefix == "xmlns" || uri == XML_NS || uri == XMLNS_NS {
            return Err(bad(format_args!(
                "xmlns:{prefix}=\"{uri}\" binds a reserved prefix or namespace"
            )));
        }
        if self.bindings.len() >= MAX_BINDINGS {
            return Err(bad(format_args!(
                "more than {MAX_BINDINGS} namespace declarations in scope"
            )));
        }
        self.bindings.push((prefix.to_owned(), ns));
        Ok(())
    }

    /// The namespace number of a prefix (empty: the default namespace, no namespace
    /// when none is declared); `None` for a prefix no declaration in scope binds.
    fn resolve(&self, prefix: &str) -> Option<u32> {
        let bound = self.bindings.iter().rev().find(|(p, _)| p == prefix);
        match bound {
            Some(&(_, ns)) => Some(ns),
            None => prefix.is_empty().then_some(0),
        }
    }

    /// The namespace number of a prefix, or why it has none: a prefix must be bound
    /// (`xml` always is, to `xml_ns`), as XML's namespaces say and the official
    /// validator's parser requires.
    fn bound(
        &self,
        prefix: &str,
        xml_ns: impl FnOnce() -> Result<u32, NotXml>,
    ) -> Result<u32, NotXml> {
        if prefix == "xml" {
            return xml_ns();
        }
        self.resolve(prefix).ok_or_else(|| {
            bad(format_args!(
                "the prefix {prefix} is not bound: no xmlns:{prefix} declaration is in scope"
            ))
        })
    }
}

/// The elements of each local name (by its number), by namespace number, in document
/// order.
type ByName = Vec<Vec<(u32, Vec<NodeId>)>>;

/// Why bytes are not a document.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct NotXml(pub String);

fn bad(e: impl std::fmt::Display) -> NotXml {
    NotXml(format!("not well-formed XML: {e}"))
}

impl Dom {
    /// Reads bytes (UTF-8) into a document.
    ///
    /// # Errors
    /// Bytes that are not UTF-8 or not a well-formed XML 1.0 document (the module
    /// `read` lists what that refuses; each error says its line and column), an
    /// entity XML does not predefine, a prefix no declaration binds, elements nested
    /// deeper than [`MAX_DEPTH`], more than `u32::MAX - 1` elements or bytes of text,
    /// more than 65 535 attributes (not counting namespaced ones) on one element.
    pub fn read(bytes: &[u8]) -> Result<Dom, NotXml> {
        let text = std::str::from_utf8(bytes)
            .map_err(|e| NotXml(format!("the bytes are not UTF-8: {e}")))?;
        // Every element starts with a `<`: room for them all at once (growing the
        // arena by doubling would hold two copies of it at its peak). The room left
        // over (end tags, comments) is never touched, so it is never resident.
        let tags = read::survey(text)?;
        let mut dom = Dom {
            nodes: Vec::with_capacity(tags),
            namespaces: vec![String::new()],
            namespace_index: std::iter::once((String::new(), 0)).collect(),
            ..Dom::default()
        };
        let mut lexer = Lexer::new(text);
        let mut stack: Vec<NodeId> = Vec::new();
        let mut scope = Scope::default();
        let mut root_done = false;
        let at = |lexer: &Lexer<'_>, e: NotXml| NotXml(format!("{} ({})", e.0, lexer.here()));
        while let Some(token) = lexer.next_token()? {
            match token {
                Token::Start { name, empty } => {
                    if root_done {
                        return Err(at(&lexer, bad("a second root element")));
                    }
                    let id = dom
                        .open(&mut scope, name, lexer.attributes(), &stack)
                        .map_err(|e| at(&lexer, e))?;
                    if empty {
                        dom.close(id);
                        scope.close();
                        root_done = stack.is_empty();
                    } else {
                        stack.push(id);
                    }
                }
                Token::End { .. } => {
                    if let Some(id) = stack.pop() {
                        dom.close(id);
                        scope.close();
                    }
                    root_done = stack.is_empty();
                }
                Token::Text(raw) => dom
                    .text(&stack, raw, Kind::Text)
                    .map_err(|e| at(&lexer, e))?,
                Token::CData(raw) => {
                    if stack.is_empty() {
                        return Err(at(&lexer, bad("a CDATA section outside the root element")));
                    }
                    dom.text(&stack, raw, Kind::CData)
                        .map_err(|e| at(&lexer, e))?;
                }
            }
        }
        if dom.nodes.is_empty() {
            return Err(bad("no root element"));
        }
        if !stack.is_empty() {
            return Err(bad("the root element is not closed"));
        }
        dom.nodes.shrink_to_fit();
        Ok(dom)
    }

    /// Keeps what `raw` says (see [`read::resolve`]); answers its range.
    fn keep(&mut self, raw: &str, kind: Kind) -> Result<Range<u32>, NotXml> {
        let start = self.strings.len();
        resolve(raw, kind, &mut self.strings).map_err(|(_, why)| bad(why))?;
        let end = self.strings.len();
        match (u32::try_from(start), u32::try_from(end)) {
            (Ok(a), Ok(b)) => Ok(a..b),
            _ => Err(NotXml("more than 4 GiB of text".into())),
        }
    }

    /// The index of a local name, kept once.
    ///
    /// A UBL repeats a few hundred names: each is found first in a small table indexed
    /// by its length and three of its bytes, and only when that slot holds another
    /// name, by hashing (callgrind, on the 500-line document: 2.6 M instructions of
    /// naming before, 0.33 M after).
    fn intern(&mut self, local: &str) -> Result<u32, NotXml> {
        let b = local.as_bytes();
        let slot = match (b.first(), b.get(b.len() / 2), b.last()) {
            (Some(&f), Some(&m), Some(&l)) => {
                (b.len() ^ usize::from(f) ^ (usize::from(m) << 2) ^ (usize::from(l) << 4))
                    % NAME_SLOTS
            }
            _ => 0,
        };
        let cached = self.recent.get(slot).copied().unwrap_or(NONE);
        if self.names.get(cached as usize).is_some_and(|n| n == local) {
            return Ok(cached);
        }
        let i = if let Some(&i) = self.name_index.get(local) {
            i
        } else {
            let i = u32::try_from(self.names.len()).map_err(|_| NotXml("too many names".into()))?;
            self.names.push(local.to_owned());
            self.name_index.insert(local.to_owned(), i);
            i
        };
        if self.recent.len() < NAME_SLOTS {
            self.recent.resize(NAME_SLOTS, NONE);
        }
        if let Some(r) = self.recent.get_mut(slot) {
            *r = i;
        }
        Ok(i)
    }

    /// The index of a namespace, kept once (the empty URI is no namespace).
    fn namespace(&mut self, uri: &str) -> Result<u32, NotXml> {
        if let Some(&i) = self.namespace_index.get(uri) {
            return Ok(i);
        }
        let i = u32::try_from(self.namespaces.len())
            .map_err(|_| NotXml("too many namespaces".into()))?;
        self.namespaces.push(uri.to_owned());
        self.namespace_index.insert(uri.to_owned(), i);
        Ok(i)
    }

    /// A start tag `qname` with its `attributes` (qualified name, value as written)
    /// under the open elements `stack`.
    fn open(
        &mut self,
        scope: &mut Scope,
        qname: QName<'_>,
        attributes: &[(QName<'_>, &str)],
        stack: &[NodeId],
    ) -> Result<NodeId, NotXml> {
        if stack.len() >= MAX_DEPTH {
            return Err(NotXml(format!("elements nested deeper than {MAX_DEPTH}")));
        }
        let id = NodeId::try_from(self.nodes.len())
            .ok()
            .filter(|&i| i < NONE)
            .ok_or_else(|| NotXml("too many elements".into()))?;
        scope.open();
        let attrs_start = self.attrs.len();
        let mut prefixed = false;
        for &(key, raw) in attributes {
            let (prefix, local) = (key.prefix, key.local);
            let declared = match (prefix, local) {
                ("", "xmlns") => Some(""),
                ("xmlns", p) => Some(p),
                _ => None,
            };
            if let Some(declared) = declared {
                let mut uri = String::new();
                resolve(raw, Kind::Attribute, &mut uri).map_err(|(_, why)| bad(why))?;
                if uri.is_empty() && !declared.is_empty() {
                    return Err(bad(format_args!(
                        "xmlns:{declared}=\"\" undeclares a prefix"
                    )));
                }
                let ns = self.namespace(&uri)?;
                scope.declare(declared, &uri, ns)?;
                continue;
            }
            if !prefix.is_empty() {
                prefixed = true;
                continue;
            }
            let name = self.intern(local)?;
            let value = self.keep(raw, Kind::Attribute)?;
            self.attrs.push(Attr { name, value });
        }
        // An attribute's prefix may be bound by a declaration after it on the tag.
        if prefixed {
            for &(key, _) in attributes {
                if !key.prefix.is_empty() && key.prefix != "xmlns" {
                    scope.bound(key.prefix, || self.namespace(XML_NS))?;
                }
            }
        }
        let attrs = u32::try_from(attrs_start).unwrap_or(u32::MAX);
        let attr_count = u16::try_from(self.attrs.len().saturating_sub(attrs_start))
            .map_err(|_| NotXml("more than 65 535 attributes on one element".into()))?;
        let ns = scope.bound(qname.prefix, || self.namespace(XML_NS))?;
        let name = self.intern(qname.local)?;
        let parent = stack.last().copied().unwrap_or(NONE);
        let here = u32::try_from(self.strings.len()).unwrap_or(u32::MAX);
        self.nodes.push(Node {
            ns,
            name,
            parent,
            text: here..here,
            attrs,
            attr_count,
            depth: u16::try_from(stack.len()).unwrap_or(u16::MAX),
            end: id.saturating_add(1),
        });
        Ok(id)
    }

    /// An element closes: its subtree ends at the next element to come.
    fn close(&mut self, id: NodeId) {
        let end = NodeId::try_from(self.nodes.len()).unwrap_or(NONE);
        if let Some(n) = self.nodes.get_mut(id as usize) {
            n.end = end;
        }
    }

    /// Text inside the innermost open element (outside the root: white space only).
    fn text(&mut self, stack: &[NodeId], raw: &str, kind: Kind) -> Result<(), NotXml> {
        let Some(&id) = stack.last() else {
            if raw.bytes().all(crate::en16931::xpath::xml_space) {
                return Ok(());
            }
            return Err(bad("text outside the root element"));
        };
        // An element's own text is kept contiguous: text after a child starts anew
        // (mixed content is not UBL; the text after the last child wins its range
        // only when there was none before).
        let fresh = self.keep(raw, kind)?;
        if let Some(node) = self.nodes.get_mut(id as usize) {
            if node.text.is_empty() {
                node.text = fresh;
            } else if node.text.end == fresh.start {
                node.text.end = fresh.end;
            }
        }
        Ok(())
    }

    fn node(&self, id: NodeId) -> Option<&Node> {
        self.nodes.get(id as usize)
    }

    fn str(&self, r: &Range<u32>) -> &str {
        self.strings
            .get(r.start as usize..r.end as usize)
            .unwrap_or("")
    }

    /// The root element.
    pub fn root(&self) -> NodeId {
        0
    }

    /// How many elements the document has.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether it has none (never, once read).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The element's local name.
    pub fn name(&self, id: NodeId) -> &str {
        self.node(id)
            .and_then(|n| self.names.get(n.name as usize))
            .map_or("", String::as_str)
    }

    /// The element's namespace URI (empty for none).
    pub fn namespace_uri(&self, id: NodeId) -> &str {
        self.node(id)
            .and_then(|n| self.namespaces.get(n.ns as usize))
            .map_or("", String::as_str)
    }

    /// The element's namespace and local name as numbers of this document (see
    /// [`Dom::namespace_number`], [`Dom::name_number`]).
    pub fn key(&self, id: NodeId) -> Option<(u32, u32)> {
        self.node(id).map(|n| (n.ns, n.name))
    }

    /// The number of a namespace URI in this document (0 is no namespace), if an
    /// element has it or a declaration names it.
    pub fn namespace_number(&self, uri: &str) -> Option<u32> {
        self.namespace_index.get(uri).copied()
    }

    /// The number of a local name in this document, if an element or attribute has it.
    pub fn name_number(&self, local: &str) -> Option<u32> {
        self.name_index.get(local).copied()
    }

    /// The number of the local name of the element's attribute at `index`.
    pub fn attribute_name_number(&self, id: NodeId, index: usize) -> Option<u32> {
        let range = self.attribute_range(id);
        let at = range.start.checked_add(index)?;
        if at < range.end {
            self.attrs.get(at).map(|a| a.name)
        } else {
            None
        }
    }

    /// Whether the element is `local` in namespace `uri`.
    pub fn is(&self, id: NodeId, uri: &str, local: &str) -> bool {
        self.name(id) == local && self.namespace_uri(id) == uri
    }

    /// The element's parent, `None` for the root.
    pub fn parent(&self, id: NodeId) -> Option<NodeId> {
        self.node(id).map(|n| n.parent).filter(|&p| p != NONE)
    }

    /// The element's depth (the root's is 0).
    pub fn depth(&self, id: NodeId) -> usize {
        self.node(id).map_or(0, |n| usize::from(n.depth))
    }

    /// The element's children, in document order.
    pub fn children(&self, id: NodeId) -> Children<'_> {
        // In document order an element's first child, if any, comes right after it,
        // and each child's next sibling right after the child's subtree.
        let end = self.subtree_end(id);
        Children {
            dom: self,
            next: id.saturating_add(1),
            end,
        }
    }

    /// The children of `id` whose name is numbered `name` in the namespace `ns`
    /// (`None`: any), in document order: [`Self::children`] with each child's name
    /// compared as it is reached, one read of the child for both. A child step by name
    /// (`cbc:LineExtensionAmount` from a line) is the artefacts' most frequent; through
    /// [`Self::children`] and [`Self::key`] each child was read twice.
    pub fn children_named(&self, id: NodeId, ns: Option<u32>, name: u32) -> ChildrenNamed<'_> {
        let base = id.saturating_add(1);
        let below = self
            .nodes
            .get(base as usize..self.subtree_end(id) as usize)
            .unwrap_or(&[]);
        ChildrenNamed {
            below,
            base,
            next: 0,
            ns,
            name,
            visited: 0,
        }
    }

    /// The element and every element below it, in document order (an element's
    /// descendants are the indexes after it up to the next one at its depth or above).
    pub fn subtree(&self, id: NodeId) -> Range<NodeId> {
        let end = self.subtree_end(id);
        id..end
    }

    fn subtree_end(&self, id: NodeId) -> NodeId {
        self.node(id).map_or(id, |n| n.end)
    }

    /// The elements of the name numbered `(namespace, local name)` ([`Self::key`])
    /// below `id` (or anywhere, for `None`), in document order. The index is built at
    /// the first call: by local-name number, then namespace (no hashing: a lookup is
    /// two vector reads and a short search).
    pub fn named_below(&self, (ns, name): (u32, u32), id: Option<NodeId>) -> &[NodeId] {
        let all = self
            .by_name()
            .get(name as usize)
            .and_then(|names| names.iter().find(|(k, _)| *k == ns))
            .map_or(&[][..], |(_, list)| list.as_slice());
        self.below(all, id)
    }

    /// The elements of `sorted` (in document order) below `id` (all, for `None`).
    pub fn below<'s>(&self, sorted: &'s [NodeId], id: Option<NodeId>) -> &'s [NodeId] {
        match id {
            None => sorted,
            Some(id) => {
                let range = self.subtree(id);
                let lo = sorted.partition_point(|&n| n <= range.start);
                let hi = sorted.partition_point(|&n| n < range.end);
                sorted.get(lo..hi).unwrap_or(&[])
            }
        }
    }

    /// The names `(namespace, local name)` ([`Self::key`]) of the document's elements,
    /// each once, from the index of [`Self::named_below`].
    pub fn element_keys(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.by_name().iter().enumerate().flat_map(|(name, names)| {
            let name = u32::try_from(name).unwrap_or(u32::MAX);
            names.iter().map(move |(ns, _)| (*ns, name))
        })
    }

    /// The index of the elements by name, built at the first call.
    fn by_name(&self) -> &ByName {
        self.by_name.get_or_init(|| {
            let mut by: ByName = Vec::new();
            for (i, n) in self.nodes.iter().enumerate() {
                let at = n.name as usize;
                if by.len() <= at {
                    by.resize_with(at + 1, Vec::new);
                }
                let Some(names) = by.get_mut(at) else {
                    continue;
                };
                let node = NodeId::try_from(i).unwrap_or(NONE);
                match names.iter_mut().find(|(k, _)| *k == n.ns) {
                    Some((_, list)) => list.push(node),
                    None => names.push((n.ns, vec![node])),
                }
            }
            by
        })
    }

    /// The attributes of the local name numbered `name` ([`Self::name_number`]) on
    /// `id` and every element below it (on every element, for `None`), in document
    /// order: (element, index of the attribute). The index is built at the first call.
    pub fn attributes_named(&self, name: u32, id: Option<NodeId>) -> &[(NodeId, u32)] {
        let index = self.by_attribute.get_or_init(|| {
            let mut by: Vec<Vec<(NodeId, u32)>> = Vec::new();
            for i in 0..self.nodes.len() {
                let node = NodeId::try_from(i).unwrap_or(NONE);
                let attrs = self.attrs.get(self.attribute_range(node));
                for (k, a) in attrs.unwrap_or(&[]).iter().enumerate() {
                    let at = a.name as usize;
                    if by.len() <= at {
                        by.resize_with(at + 1, Vec::new);
                    }
                    if let Some(list) = by.get_mut(at) {
                        list.push((node, u32::try_from(k).unwrap_or(u32::MAX)));
                    }
                }
            }
            by
        });
        let all = index.get(name as usize).map_or(&[][..], Vec::as_slice);
        match id {
            None => all,
            Some(id) => {
                let range = self.subtree(id);
                let lo = all.partition_point(|&(n, _)| n < range.start);
                let hi = all.partition_point(|&(n, _)| n < range.end);
                all.get(lo..hi).unwrap_or(&[])
            }
        }
    }

    /// The element's own text.
    pub fn own_text(&self, id: NodeId) -> &str {
        self.node(id).map_or("", |n| self.str(&n.text))
    }

    /// XPath's string value of the element: the text of it and of every element below
    /// it, in document order.
    pub fn string_value(&self, id: NodeId) -> std::borrow::Cow<'_, str> {
        let range = self.subtree(id);
        if range.len() <= 1 {
            return std::borrow::Cow::Borrowed(self.own_text(id));
        }
        // Text before, between and after children is not kept apart: the element's
        // own text, then its descendants' (UBL has no mixed content).
        let mut s = String::new();
        for n in range {
            s.push_str(self.own_text(n));
        }
        std::borrow::Cow::Owned(s)
    }

    /// The element's attributes: local name and value.
    pub fn attributes(&self, id: NodeId) -> impl Iterator<Item = (&str, &str)> + '_ {
        let range = self.attribute_range(id);
        self.attrs.get(range).unwrap_or(&[]).iter().map(|a| {
            let name = self.names.get(a.name as usize).map_or("", String::as_str);
            (name, self.str(&a.value))
        })
    }

    /// The element's attributes as [`Self::attributes`], each name by its number (an
    /// index into the document's names, as an element's local name: [`Self::key`]).
    pub fn attribute_ids(&self, id: NodeId) -> impl Iterator<Item = (u32, &str)> + '_ {
        let range = self.attribute_range(id);
        self.attrs
            .get(range)
            .unwrap_or(&[])
            .iter()
            .map(|a| (a.name, self.str(&a.value)))
    }

    /// How many attributes the element has.
    pub fn attribute_count(&self, id: NodeId) -> usize {
        self.attribute_range(id).len()
    }

    /// The range of [`Self::attrs`] that holds the element's attributes.
    fn attribute_range(&self, id: NodeId) -> Range<usize> {
        self.node(id).map_or(0..0, |n| {
            n.attrs as usize..(n.attrs as usize).saturating_add(usize::from(n.attr_count))
        })
    }

    /// The element's attribute at `index`: local name and value.
    pub fn attribute_at(&self, id: NodeId, index: usize) -> Option<(&str, &str)> {
        self.attributes(id).nth(index)
    }

    /// The value of the attribute `local` (no namespace), if any.
    pub fn attribute(&self, id: NodeId, local: &str) -> Option<&str> {
        self.attributes(id)
            .find(|(n, _)| *n == local)
            .map(|(_, v)| v)
    }

    /// Where the element stands, as the official validator writes it:
    /// `/*:Invoice[namespace-uri()='…'][1]/*:IssueDate[namespace-uri()='…'][1]`.
    pub fn location(&self, id: NodeId) -> String {
        let mut chain = Vec::new();
        let mut at = Some(id);
        while let Some(n) = at {
            chain.push(n);
            at = self.parent(n);
        }
        let mut out = String::new();
        for &n in chain.iter().rev() {
            let uri = self.namespace_uri(n);
            let name = self.name(n);
            let index = 1 + self.preceding_same(n);
            // Writing into a String cannot fail.
            let _ = if uri.is_empty() {
                write!(out, "/{name}[{index}]")
            } else {
                write!(out, "/*:{name}[namespace-uri()='{uri}'][{index}]")
            };
        }
        out
    }

    /// How many preceding siblings have the element's name and namespace.
    fn preceding_same(&self, id: NodeId) -> usize {
        let Some(parent) = self.parent(id) else {
            return 0;
        };
        let (uri, name) = (self.namespace_uri(id), self.name(id));
        self.children(parent)
            .take_while(|&c| c != id)
            .filter(|&c| self.name(c) == name && self.namespace_uri(c) == uri)
            .count()
    }
}

/// The children of an element that have a name ([`Dom::children_named`]).
pub struct ChildrenNamed<'a> {
    /// The element's subtree without the element.
    below: &'a [Node],
    /// The number of the first node of `below`.
    base: NodeId,
    /// The next child, an index into `below`.
    next: usize,
    ns: Option<u32>,
    name: u32,
    visited: usize,
}

impl ChildrenNamed<'_> {
    /// How many children were reached so far, of any name (a plan's budget counts
    /// them).
    pub fn visited(&self) -> usize {
        self.visited
    }
}

impl Iterator for ChildrenNamed<'_> {
    type Item = NodeId;

    fn next(&mut self) -> Option<NodeId> {
        loop {
            let at = self.next;
            let node = self.below.get(at)?;
            // the next sibling comes right after this child's subtree
            self.next = (node.end.saturating_sub(self.base) as usize).max(at + 1);
            self.visited += 1;
            if node.name == self.name && self.ns.is_none_or(|ns| ns == node.ns) {
                return NodeId::try_from(at).ok()?.checked_add(self.base);
            }
        }
    }
}

/// The children of an element.
pub struct Children<'a> {
    dom: &'a Dom,
    next: NodeId,
    /// The end of the parent's subtree.
    end: NodeId,
}

impl Iterator for Children<'_> {
    type Item = NodeId;

    fn next(&mut self) -> Option<NodeId> {
        let id = self.next;
        if id >= self.end {
            return None;
        }
        self.next = self.dom.subtree_end(id).max(id.saturating_add(1));
        Some(id)
    }
}

#[cfg(test)]
mod tests;

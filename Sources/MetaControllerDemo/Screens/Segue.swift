/// Plays the part of `UIStoryboardSegue`: the storyboard made the destination;
/// the source prepares it before it appears.
struct Segue {
    let identifier: String
    let destination: AnyObject
}
